import CloudSim
import Foundation

/// Apple's `CKShare`: a record of type `cloudkit.share` that shares a record hierarchy
/// (`init(rootRecord:)`) or a whole zone (`init(recordZoneID:)`).
///
/// Saved with its root in one `modifyRecords` (or alone, for a zone), it creates the share in
/// the simulated cloud; participants added with `addParticipant(_:)` are invited, and those
/// removed are removed, when the share is saved again. The server keeps the participants: a
/// share fetched back carries them, the owner first.
open class CKShare: CKRecord, @unchecked Sendable {
    // `@unchecked`: as `CKRecord`, used on its device's thread only.

    /// Who may join without an invitation: above `none`, anyone with the URL joins with this
    /// permission; back to `none`, the public participants are removed (sent when saved).
    public var publicPermission: ParticipantPermission = .none
    /// The public permission as the server last returned it.
    var serverPublicPermission: ParticipantPermission = .none
    /// The participants as the server last returned them, the owner first.
    public internal(set) var participants: [Participant] = []
    /// The share's URL once it is saved (`https://www.icloud.com/share/…`).
    public internal(set) var url: URL?
    /// Invitations and removals made since the share was fetched, sent when it is saved.
    var invited: [Participant] = []
    var removed: [Participant] = []
    /// The root's name, for a hierarchy share made here or named `Share-<root>`.
    var rootRecordName: String?

    /// A share of `rootRecord` and the records below it (through `parent`); the root is
    /// marked with it, so saving both together creates the share.
    public init(rootRecord: CKRecord) {
        super.init(recordType: CloudRecord.shareRecordType,
            recordID: ID(recordName: "Share-" + rootRecord.recordID.recordName,
                zoneID: rootRecord.recordID.zoneID))
        rootRecord.share = Reference(recordID: recordID, action: .none)
        rootRecordName = rootRecord.recordID.recordName
    }

    /// A share of `rootRecord` under the record ID given.
    public init(rootRecord: CKRecord, shareID: CKRecord.ID) {
        super.init(recordType: CloudRecord.shareRecordType, recordID: shareID)
        rootRecord.share = Reference(recordID: recordID, action: .none)
        rootRecordName = rootRecord.recordID.recordName
    }

    /// A share the cloud returned.
    init(shareID: CKRecord.ID) {
        super.init(recordType: CloudRecord.shareRecordType, recordID: shareID)
        let name = shareID.recordName
        rootRecordName = name.hasPrefix("Share-") ? String(name.dropFirst("Share-".count)) : nil
    }

    /// A share of every record of the zone.
    public init(recordZoneID: CKRecordZone.ID) {
        super.init(recordType: CloudRecord.shareRecordType,
            recordID: ID(recordName: CloudRecord.zoneShareRecordName, zoneID: recordZoneID))
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// The owner (the first participant), once the server returned the share.
    public var owner: Participant? { participants.first { $0.role == .owner } }

    /// The signed-in user's entry, if any.
    public var currentUserParticipant: Participant? {
        guard let account = DeviceRuntime.current?.account else { return nil }
        return participants.first { $0.account == account }
    }

    /// Invites `participant` when the share is next saved.
    public func addParticipant(_ participant: Participant) {
        removed.removeAll { $0.account == participant.account }
        invited.removeAll { $0.account == participant.account }
        invited.append(participant)
    }

    /// Removes `participant` when the share is next saved.
    public func removeParticipant(_ participant: Participant) {
        invited.removeAll { $0.account == participant.account }
        removed.append(participant)
    }

    /// The share as the cloud holds it, seen by `account`.
    convenience init(share record: CloudRecord, account: String?) {
        let zone = CKRecordZone.ID.of(record.zone, account: account)
        self.init(shareID: ID(recordName: record.recordName, zoneID: zone))
        adopt(record, account: account)
    }

    func adopt(_ record: CloudRecord, account: String?) {
        fields = record.fields
        recordChangeTag = record.changeTag
        creationDate = record.creationTime.map(SimulatedDates.date)
        modificationDate = record.modificationTime.map(SimulatedDates.date)
        setUsers(of: record, account: account)
        participants = record.participants.map(Participant.init)
        publicPermission = ParticipantPermission(rawValue: record.publicPermission.rawValue)
            ?? .none
        serverPublicPermission = publicPermission
        url = URL(string: CloudService.shareURL(of: ShareInfo(
            shareRecordName: record.recordName, zone: record.zone, rootRecordName: nil,
            participants: record.participants)))
        invited = []
        removed = []
    }

    /// What saving the share asks of the cloud after the record itself: a changed public
    /// permission, then one share step per invitation and removal, in the order made.
    func steps(account: String) -> [(ZoneID, ShareTarget, ShareAction)] {
        let zone = recordID.zoneID.simulated(account: account)
        let target: ShareTarget = rootRecordName.map(ShareTarget.rootRecord) ?? .zone
        var steps: [(ZoneID, ShareTarget, ShareAction)] = []
        if publicPermission != serverPublicPermission {
            let permission = SharePermission(rawValue: publicPermission.rawValue) ?? .none
            steps.append((zone, target, .setPublicPermission(permission)))
        }
        let invites = invited.map { participant in
            (zone, target, ShareAction.invite(account: participant.account,
                permission: SharePermission(rawValue: participant.permission.rawValue)
                    ?? .readOnly,
                role: participant.role == .administrator ? .administrator : .privateUser))
        }
        let removals = removed.map { (zone, target, ShareAction.removeParticipant(
            account: $0.account)) }
        return steps + invites + removals
    }
}
