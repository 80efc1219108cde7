import CloudSim
import Foundation

/// A zone's identity (Apple's `CKRecordZone.ID`, `CKRecordZoneID` in Objective-C): its name
/// and its owner (`CKCurrentUserDefaultName` by default). A top-level class for the same
/// reason as `CKRecordID`: an app archives it.
public final class CKRecordZoneID: NSObject, NSSecureCoding, @unchecked Sendable {
    // `@unchecked`: immutable after init.
    public static let defaultZoneName = "_defaultZone"
    public static let `default` = CKRecordZoneID(zoneName: defaultZoneName)
    public static var supportsSecureCoding: Bool { true }

    public let zoneName: String
    public let ownerName: String

    public init(zoneName: String = CKRecordZoneID.defaultZoneName,
        ownerName: String = CKCurrentUserDefaultName) {
        self.zoneName = zoneName
        self.ownerName = ownerName
    }

    public required init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "zoneName"),
              let owner = coder.decodeObject(of: NSString.self,
                  forKey: "ownerName") else { return nil }
        zoneName = name as String
        ownerName = owner as String
    }

    public func encode(with coder: NSCoder) {
        coder.encode(zoneName as NSString, forKey: "zoneName")
        coder.encode(ownerName as NSString, forKey: "ownerName")
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CKRecordZoneID else { return false }
        return other.zoneName == zoneName && other.ownerName == ownerName
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(zoneName)
        hasher.combine(ownerName)
        return hasher.finalize()
    }

    public override var description: String {
        "<CKRecordZoneID: zoneName=\(zoneName), ownerName=\(ownerName)>"
    }

    /// The simulated cloud's zone, the default owner resolved to `account`.
    func simulated(account: String) -> ZoneID {
        ZoneID(owner: ownerName == CKCurrentUserDefaultName ? account : ownerName,
            name: zoneName)
    }

    /// The zone ID an app sees for the cloud's zone: the signed-in account's own zones
    /// carry the default owner, as CloudKit returns them, and so does a zone named with it
    /// while signed out (it has no owner here), and the public database's zone.
    static func of(_ zone: ZoneID, account: String?) -> CKRecordZoneID {
        CKRecordZoneID(zoneName: zone.name, ownerName: zone.owner == account || zone.owner.isEmpty
            || zone.isPublicZone ? CKCurrentUserDefaultName : zone.owner)
    }
}
