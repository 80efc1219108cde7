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

    /// Apple's Swift name of a zone's identity.
    public typealias ID = CKRecordZoneID
}
