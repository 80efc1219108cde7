import CloudSim
import Device
import Kernel
import Scenario
import SyncContract

extension World {
    /// The sharing statements. The owner's or participant's device makes the share request
    /// at once (CKShare steps are one request each); the cloud enforces who may do what, and
    /// a refusal is traced with CloudKit's error, not a failure of the run, so scenarios can
    /// show every forbidden path.
    func performSharing(_ action: DeviceAction, device index: Int) {
        let device = devices[index]
        guard device.isRunning else {
            fail("device '\(device.name)' is not running; 'launch' it first")
            return
        }
        labels.resolveNames(devices: devices)
        let client = device.client
        guard let outcome = zoneWideShareOutcome(action, client: client, device: device)
            ?? hierarchyShareOutcome(action, client: client, device: device) else { return }
        applyNotes(outcome.notes)
        sendPushes(outcome.pushes)
        if case .failure(let error) = outcome.response {
            record(device.name, "share.refused", [
                TraceField("action", .string(Self.name(of: action))),
                TraceField("error", .string(error.description)),
            ])
            refusals[index].insert(error.code)
            return
        }
        record(device.name, "share.done", [TraceField("action", .string(Self.name(of: action)))])
        switch action {
        case .acceptShare, .leaveShare:
            // The cloud pushes to everyone but the device that took the step: it synchronizes
            // by itself, to download the zone it joined or to learn it left.
            deliver(Self.pushEvent, to: index)
        default:
            break
        }
    }

    /// A sharing step on the root's own share (sds, naive); nil when the label has no
    /// record (the run has failed) or the action is not a sharing step.
    private func hierarchyShareOutcome(
        _ action: DeviceAction, client: CloudClient, device: Device
    ) -> CloudOutcome? {
        switch action {
        case .share(let label, let account, let permission, let administrator):
            guard let name = sharedRecordName(label.value) else { return nil }
            let invite = ShareAction.invite(
                account: account.value,
                permission: permission == .readWrite ? .readWrite : .readOnly,
                role: administrator ? .administrator : .privateUser)
            return cloud.shareAction(
                invite, on: .rootRecord(name), in: managedZone(holding: name, device: device),
                by: client, now: now)
        case .sharePublic(let label, let permission):
            guard let name = sharedRecordName(label.value) else { return nil }
            let zone = ownZone(holding: name, account: device.account ?? "")
            return cloud.shareAction(
                .setPublicPermission(Self.sharePermission(permission.value)),
                on: .rootRecord(name), in: zone, by: client, now: now)
        case .acceptShare(let label):
            guard let name = sharedRecordName(label.value) else { return nil }
            return cloud.acceptShare(
                rootRecordName: name, ownerZone: ownerZone(of: name, default: device),
                by: client, now: now)
        case .unshare(let label):
            guard let name = sharedRecordName(label.value) else { return nil }
            return cloud.unshare(
                rootRecordName: name, ownerZone: shareZone(of: name, owner: device.account ?? ""),
                by: client, now: now)
        case .removeParticipant(let account, let label):
            guard let name = sharedRecordName(label.value) else { return nil }
            let owned = cloud.shares(of: device.account ?? "")
                .contains { $0.rootRecordName == name }
            return cloud.removeParticipant(
                account.value, rootRecordName: name,
                ownerZone: owned ? shareZone(of: name, owner: device.account ?? "")
                    : managedZone(holding: name, device: device),
                by: client, now: now)
        case .leaveShare(let label):
            guard let name = sharedRecordName(label.value) else { return nil }
            return cloud.leaveShare(
                rootRecordName: name, ownerZone: ownerZone(of: name, default: device),
                by: client, now: now)
        default:
            return nil
        }
    }

    /// For an engine that shares whole zones (its codec names the zone of a root, outbox's
    /// OBX-28): the same step on the zone-wide share of the root's collection zone. Nil for
    /// a hierarchy-sharing engine (sds, naive), whose steps stay exactly as they were.
    private func zoneWideShareOutcome(
        _ action: DeviceAction, client: CloudClient, device: Device
    ) -> CloudOutcome? {
        let label: String
        switch action {
        case .share(let root, _, _, _), .sharePublic(let root, _), .acceptShare(let root),
             .unshare(let root), .removeParticipant(_, let root), .leaveShare(let root):
            label = root.value
        default:
            return nil
        }
        guard let rootName = labels.recordName(of: label),
              let zoneName = codec.sharedZoneName(ofRoot: rootName) else { return nil }
        let own = ZoneID(owner: device.account ?? "", name: zoneName)
        let owner = cloud.accountNames.first {
            cloud.zones(of: $0).contains(ZoneID(owner: $0, name: zoneName))
        }
        let ownerZone = owner.map { ZoneID(owner: $0, name: zoneName) } ?? own
        let step: ShareAction
        var zone = own
        // An administrator's steps go to the owner's zone, which its own account does not hold.
        let managed = cloud.zones(of: device.account ?? "").contains(own) ? own : ownerZone
        switch action {
        case .share(_, let account, let permission, let administrator):
            step = .invite(
                account: account.value,
                permission: permission == .readWrite ? .readWrite : .readOnly,
                role: administrator ? .administrator : .privateUser)
            zone = managed
        case .sharePublic(_, let permission):
            step = .setPublicPermission(Self.sharePermission(permission.value))
        case .acceptShare:
            step = .accept
            zone = ownerZone
        case .unshare:
            step = .stop
        case .removeParticipant(let account, _):
            step = .removeParticipant(account: account.value)
            zone = managed
        case .leaveShare:
            step = .leave
            zone = ownerZone
        default:
            return nil
        }
        return cloud.shareAction(step, on: .zone, in: zone, by: client, now: now)
    }

    private func sharedRecordName(_ label: String) -> String? {
        guard let name = labels.recordName(of: label) else {
            fail("label '\(label)' has no record yet; let its device synchronize first")
            return nil
        }
        return name
    }

    /// The zone of the account's private database holding the record, whichever engine laid
    /// it out (several zones per account); the app zone when none holds it (the step then
    /// meets CloudKit's error there).
    private func ownZone(holding name: String, account: String) -> ZoneID {
        cloud.zones(of: account).first { cloud.record(named: name, in: $0) != nil }
            ?? cloud.appZone(of: account)
    }

    /// The zone holding the root in the device's own database; else, for an administrator,
    /// the zone of the share whose root it is (the owner's).
    private func managedZone(holding name: String, device: Device) -> ZoneID {
        let account = device.account ?? ""
        let holding = cloud.zones(of: account).first { cloud.record(named: name, in: $0) != nil }
        if let own = holding {
            return own
        }
        return ownerZone(of: name, default: device)
    }

    static func sharePermission(_ setting: PublicPermissionSetting) -> CloudSim.SharePermission {
        switch setting {
        case .none: return .none
        case .readOnly: return .readOnly
        case .readWrite: return .readWrite
        }
    }

    /// The zone of the owner's share of a root, else the zone holding the root.
    private func shareZone(of rootName: String, owner account: String) -> ZoneID {
        cloud.shares(of: account).first { $0.rootRecordName == rootName }?.zone
            ?? ownZone(holding: rootName, account: account)
    }

    /// The zone holding a shared root, found among the cloud's shares (any owner, any zone).
    private func ownerZone(of rootName: String, default device: Device) -> ZoneID {
        for account in cloud.accountNames {
            if let share = cloud.shares(of: account)
                .first(where: { $0.rootRecordName == rootName }) {
                return share.zone
            }
        }
        return cloud.appZone(of: device.account ?? "")
    }
}
