/// `CKShare.ParticipantPermission`, with CloudKit's raw values ([CKShare.Participant]).
public enum SharePermission: Int, Hashable, Sendable, CustomStringConvertible {
    case unknown = 0
    case none = 1
    case readOnly = 2
    case readWrite = 3

    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .none: return "none"
        case .readOnly: return "readOnly"
        case .readWrite: return "readWrite"
        }
    }
}

/// `CKShare.ParticipantAcceptanceStatus`, with CloudKit's raw values.
public enum ParticipantAcceptanceStatus: Int, Hashable, Sendable, CustomStringConvertible {
    case unknown = 0
    case pending = 1
    case accepted = 2
    /// Removed by the owner, or left (a participant who deleted the share on their side).
    case removed = 3

    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .pending: return "pending"
        case .accepted: return "accepted"
        case .removed: return "removed"
        }
    }
}

/// `CKShare.ParticipantRole`, with CloudKit's raw values: the owner is `owner`, an invited
/// account `privateUser` or `administrator`, an account that joined by URL `publicUser`.
public enum ParticipantRole: Int, Hashable, Sendable, CustomStringConvertible {
    case unknown = 0
    case owner = 1
    case administrator = 2
    case privateUser = 3
    case publicUser = 4

    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .owner: return "owner"
        case .administrator: return "administrator"
        case .privateUser: return "privateUser"
        case .publicUser: return "publicUser"
        }
    }
}

/// One participant of a share, as the share record carries it (`CKShare.Participant`).
public struct ShareParticipant: Hashable, Sendable, CustomStringConvertible {
    /// The participant's account (the simulator's stand-in for its user identity).
    public var account: String
    public var role: ParticipantRole
    public var permission: SharePermission
    public var acceptanceStatus: ParticipantAcceptanceStatus

    public init(
        account: String, role: ParticipantRole, permission: SharePermission,
        acceptanceStatus: ParticipantAcceptanceStatus
    ) {
        self.account = account
        self.role = role
        self.permission = permission
        self.acceptanceStatus = acceptanceStatus
    }

    /// The owner of a share: always read-write and accepted.
    public static func owner(_ account: String) -> ShareParticipant {
        ShareParticipant(
            account: account, role: .owner, permission: .readWrite, acceptanceStatus: .accepted)
    }

    /// `bob:privateUser:readWrite:accepted`.
    public var description: String { "\(account):\(role):\(permission):\(acceptanceStatus)" }
}

/// What a share covers: a record hierarchy (`CKShare(rootRecord:)`) or a whole zone
/// (`CKShare(recordZoneID:)`).
public enum ShareTarget: Hashable, Sendable, CustomStringConvertible {
    /// The root record and every record below it through `parent`.
    case rootRecord(String)
    /// Every record of the zone; the share record is always named `cloudkit.zoneshare`.
    case zone

    public var description: String {
        switch self {
        case .rootRecord(let name): return "root \(name)"
        case .zone: return "zone"
        }
    }
}

/// What a `.share` request does to a share (the scenario's sharing statements).
public enum ShareAction: Hashable, Sendable {
    /// The owner or an administrator invites an account (the owner creating the share first
    /// when there is none yet), or changes the permission of a participant already invited;
    /// only the owner gives or takes the `administrator` role.
    case invite(account: String, permission: SharePermission, role: ParticipantRole = .privateUser)
    /// The owner sets `publicPermission` (creating the share first when there is none yet).
    case setPublicPermission(SharePermission)
    /// An invited account accepts (`CKAcceptSharesOperation`).
    case accept
    /// The owner or an administrator removes a participant.
    case removeParticipant(account: String)
    /// The owner stops sharing: the share record is deleted.
    case stop
    /// A participant leaves (deletes the share on their side), or declines a pending one.
    case leave

    /// A short name for traces and `CloudRequest.kind`.
    public var name: String {
        switch self {
        case .invite: return "shareInvite"
        case .setPublicPermission: return "setPublicPermission"
        case .accept: return "acceptShare"
        case .removeParticipant: return "removeParticipant"
        case .stop: return "stopShare"
        case .leave: return "leaveShare"
        }
    }
}

/// A share as the server holds it, for answers and inspection.
public struct ShareInfo: Hashable, Sendable {
    /// The share record's name (`Share-<root>` or `cloudkit.zoneshare`).
    public var shareRecordName: String
    /// The owner's zone the share lives in; `zone.owner` is the owner.
    public var zone: ZoneID
    /// The root of a hierarchy share; nil for a zone-wide share.
    public var rootRecordName: String?
    /// The owner first, then the invited accounts in invitation order (removed ones stay,
    /// with status `removed`).
    public var participants: [ShareParticipant]
    /// Who may join by URL alone (`none`: invited accounts only).
    public var publicPermission: SharePermission

    public init(
        shareRecordName: String, zone: ZoneID, rootRecordName: String?,
        participants: [ShareParticipant], publicPermission: SharePermission = .none
    ) {
        self.shareRecordName = shareRecordName
        self.zone = zone
        self.rootRecordName = rootRecordName
        self.participants = participants
        self.publicPermission = publicPermission
    }

    public var owner: String { zone.owner }

    public var target: ShareTarget {
        rootRecordName.map(ShareTarget.rootRecord) ?? .zone
    }

    /// The entry of one account, if it was ever invited.
    public func participant(_ account: String) -> ShareParticipant? {
        participants.first { $0.account == account }
    }
}

extension CloudRecord {
    /// `CKRecordTypeShare`: the record type of every share record.
    public static let shareRecordType = "cloudkit.share"
    /// `CKRecordNameZoneWideShare`: the record name of every zone-wide share.
    public static let zoneShareRecordName = "cloudkit.zoneshare"
    /// The optional system keys a share record may carry (`CKShare.SystemFieldKey`).
    public static let shareSystemKeys = [
        "cloudkit.thumbnailImageData", "cloudkit.title", "cloudkit.type",
    ]

    /// Whether this is a share record (`CKShare`), which the app's entities never are.
    public var isShare: Bool { recordType == Self.shareRecordType }

    /// The share record name the server gives a hierarchy share created for `root`:
    /// `Share-<root>` (stable across delete and re-share, like a share's URL).
    public static func shareRecordName(forRoot root: String) -> String {
        let name = "Share-" + root
        guard name.utf8.count > RecordValidation.maximumLength else { return name }
        let digest = UserRecordName.fnv1a(root.utf8, basis: 0xcbf2_9ce4_8422_2325)
        return "Share-" + UserRecordName.hex(digest)
    }
}
