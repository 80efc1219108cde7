import CloudSim
import Foundation

/// The owner name that stands for the current user (Apple's `CKCurrentUserDefaultName`): a
/// zone ID made with it means the zone of whichever account the device is signed in to when a
/// request is sent.
public let CKCurrentUserDefaultName = "__defaultOwner__"

/// Apple's name of the default owner, kept for code written before iOS 10.
public let CKOwnerDefaultName = CKCurrentUserDefaultName

/// A record zone (Apple's `CKRecordZone`): its ID and capabilities.
public final class CKRecordZone: NSObject, @unchecked Sendable {
    // `@unchecked`: immutable after init.
    public let zoneID: ID
    public let capabilities: Capabilities

    public init(zoneName: String) {
        zoneID = ID(zoneName: zoneName)
        capabilities = [.fetchChanges, .atomic]
    }

    public init(zoneID: ID) {
        self.zoneID = zoneID
        capabilities = zoneID.zoneName == ID.defaultZoneName ? [] : [.fetchChanges, .atomic]
    }

    public static func `default`() -> CKRecordZone { CKRecordZone(zoneID: .default) }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? CKRecordZone)?.zoneID == zoneID
    }

    public override var hash: Int { zoneID.hash }

    public override var description: String { "<CKRecordZone: \(zoneID)>" }

    /// What a zone supports (custom zones fetch changes and save atomically).
    public struct Capabilities: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let fetchChanges = Capabilities(rawValue: 1 << 0)
        public static let atomic = Capabilities(rawValue: 1 << 1)
        public static let sharing = Capabilities(rawValue: 1 << 2)
        public static let zoneWideSharing = Capabilities(rawValue: 1 << 3)
    }

    /// A zone's identity: its name and its owner (`CKCurrentUserDefaultName` by default).
    public final class ID: NSObject, NSSecureCoding, @unchecked Sendable {
        // `@unchecked`: immutable after init.
        public static let defaultZoneName = "_defaultZone"
        public static let `default` = ID(zoneName: defaultZoneName)
        public static var supportsSecureCoding: Bool { true }

        public let zoneName: String
        public let ownerName: String

        public init(zoneName: String = ID.defaultZoneName,
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
            guard let other = object as? ID else { return false }
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
        /// while signed out (it has no owner here).
        static func of(_ zone: ZoneID, account: String?) -> ID {
            ID(zoneName: zone.name, ownerName: zone.owner == account || zone.owner.isEmpty
                ? CKCurrentUserDefaultName : zone.owner)
        }
    }
}
