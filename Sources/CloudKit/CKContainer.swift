import CloudSim

/// An app's container (Apple's `CKContainer`). It belongs to no device: each call and each
/// database resolves to the simulated device whose code makes it, so one `static let` shared
/// by every simulated device of a test works as it does on one real device.
public final class CKContainer: NSObject, @unchecked Sendable {
    // `@unchecked`: immutable.
    public let containerIdentifier: String?
    public let privateCloudDatabase = CKDatabase(scope: .private)
    public let sharedCloudDatabase = CKDatabase(scope: .shared)
    public let publicCloudDatabase = CKDatabase(scope: .public)

    public init(identifier: String) {
        containerIdentifier = identifier
    }

    private override init() {
        containerIdentifier = "iCloud.default"
    }

    private static let defaultContainer = CKContainer()

    /// The app's default container.
    public static func `default`() -> CKContainer { defaultContainer }

    public func database(with scope: CKDatabase.Scope) -> CKDatabase {
        switch scope {
        case .private: return privateCloudDatabase
        case .shared: return sharedCloudDatabase
        case .public: return publicCloudDatabase
        }
    }

    /// The device's iCloud account status, as the cloud answers it.
    public func accountStatus() async throws -> CKAccountStatus {
        let runtime = try CKDatabase.runtime("accountStatus()")
        let response = await runtime.request(.accountStatus)
        guard case .accountStatus(let status) = response else {
            throw CKDatabase.error(response, runtime)
        }
        return CKAccountStatus(rawValue: status.rawValue) ?? .couldNotDetermine
    }

    /// The signed-in user's record ID.
    public func userRecordID() async throws -> CKRecord.ID {
        let runtime = try CKDatabase.runtime("userRecordID()")
        let response = await runtime.request(.fetchUserRecordID)
        guard case .userRecordID(let name) = response else {
            throw CKDatabase.error(response, runtime)
        }
        return CKRecord.ID(recordName: name)
    }
}

/// An iCloud account's status (Apple's raw values).
public enum CKAccountStatus: Int, Sendable, Hashable {
    case couldNotDetermine = 0
    case available = 1
    case restricted = 2
    case noAccount = 3
    case temporarilyUnavailable = 4
}

extension Notification.Name {
    /// Posted when the device's account changes (Apple's `.CKAccountChanged`).
    public static let CKAccountChanged = Notification.Name("CKAccountChanged")
}
