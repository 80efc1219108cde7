import Foundation

/// Apple's `CKOperationGroup`: a name, a quantity, expected transfer sizes and a default
/// configuration for the operations an app groups ([CKOperationGroup]: groups help the system
/// prioritize calls and identify them in CloudKit Console). Accepted and kept; they change
/// nothing in the simulation, which has no console, no scheduling by size and no QoS.
public final class CKOperationGroup: NSObject, NSSecureCoding, @unchecked Sendable {
    // `@unchecked`: configured by the app's code on its device, as Apple's is.
    public static var supportsSecureCoding: Bool { true }

    /// Apple's expected transfer sizes (raw values as Apple's).
    public enum TransferSize: Int, Sendable {
        case unknown = 0
        case kilobytes = 1
        case megabytes = 2
        case tensOfMegabytes = 3
        case hundredsOfMegabytes = 4
        case gigabytes = 5
        case tensOfGigabytes = 6
        case hundredsOfGigabytes = 7
    }

    /// Unique on its device: the device's name and a count of the groups made there (a
    /// random ID would change from run to run).
    public let operationGroupID: String
    public var name: String?
    public var quantity = 0
    public var expectedSendSize = TransferSize.unknown
    public var expectedReceiveSize = TransferSize.unknown
    public var defaultConfiguration: CKOperation.Configuration! = CKOperation.Configuration()

    public override init() {
        if let runtime = DeviceRuntime.current {
            runtime.operationGroupCount += 1
            operationGroupID = "\(runtime.device)-group-\(runtime.operationGroupCount)"
        } else {
            operationGroupID = "group"
        }
    }

    public init?(coder: NSCoder) {
        guard let id = coder.decodeObject(of: NSString.self, forKey: "operationGroupID")
            as String? else { return nil }
        operationGroupID = id
        name = coder.decodeObject(of: NSString.self, forKey: "name") as String?
        quantity = coder.decodeInteger(forKey: "quantity")
        expectedSendSize = TransferSize(rawValue: coder.decodeInteger(
            forKey: "expectedSendSize")) ?? .unknown
        expectedReceiveSize = TransferSize(rawValue: coder.decodeInteger(
            forKey: "expectedReceiveSize")) ?? .unknown
    }

    public func encode(with coder: NSCoder) {
        coder.encode(operationGroupID as NSString, forKey: "operationGroupID")
        if let name { coder.encode(name as NSString, forKey: "name") }
        coder.encode(quantity, forKey: "quantity")
        coder.encode(expectedSendSize.rawValue, forKey: "expectedSendSize")
        coder.encode(expectedReceiveSize.rawValue, forKey: "expectedReceiveSize")
    }
}

extension CKDatabase {
    /// Runs `body` with this database under a configuration and a group (Apple's
    /// `configuredWith(configuration:group:body:)`). Accepted; the calls in `body` run as
    /// any others: the simulation models neither QoS, timeouts nor groups.
    @discardableResult @preconcurrency
    public func configuredWith<R>(
        configuration: CKOperation.Configuration? = nil, group: CKOperationGroup? = nil,
        body: @Sendable (CKDatabase) async throws -> R
    ) async rethrows -> R {
        try await body(self)
    }
}
