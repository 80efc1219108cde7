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
        let outcome: CloudOutcome
        switch action {
        case .share(let label, let account, let permission):
            guard let name = sharedRecordName(label.value) else { return }
            let zone = ownZone(holding: name, account: device.account ?? "")
            outcome = cloud.share(
                rootRecordName: name, in: zone, with: account.value,
                permission: permission == .readWrite ? .readWrite : .readOnly,
                by: client, now: now)
        case .acceptShare(let label):
            guard let name = sharedRecordName(label.value) else { return }
            outcome = cloud.acceptShare(rootRecordName: name, ownerZone: ownerZone(of: name, default: device), by: client, now: now)
        case .unshare(let label):
            guard let name = sharedRecordName(label.value) else { return }
            outcome = cloud.unshare(rootRecordName: name, ownerZone: shareZone(of: name, owner: device.account ?? ""), by: client, now: now)
        case .removeParticipant(let account, let label):
            guard let name = sharedRecordName(label.value) else { return }
            outcome = cloud.removeParticipant(
                account.value, rootRecordName: name, ownerZone: shareZone(of: name, owner: device.account ?? ""),
                by: client, now: now)
        case .leaveShare(let label):
            guard let name = sharedRecordName(label.value) else { return }
            outcome = cloud.leaveShare(rootRecordName: name, ownerZone: ownerZone(of: name, default: device), by: client, now: now)
        default:
            return
        }
        applyNotes(outcome.notes)
        sendPushes(outcome.pushes)
        if case .failure(let error) = outcome.response {
            record(device.name, "share.refused", [TraceField("action", .string(Self.name(of: action))),
                                                  TraceField("error", .string(error.description))])
            refusals[index].insert(error.code.description)
            return
        }
        record(device.name, "share.done", [TraceField("action", .string(Self.name(of: action)))])
        switch action {
        case .acceptShare, .leaveShare:
            // The cloud pushes to everyone but the device that took the step: it synchronizes
            // by itself, to download the zone it joined or to learn it left.
            deliver(.push, to: index)
        default:
            break
        }
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

    /// The zone of the owner's share of a root, else the zone holding the root.
    private func shareZone(of rootName: String, owner account: String) -> ZoneID {
        cloud.shares(of: account).first { $0.rootRecordName == rootName }?.zone
            ?? ownZone(holding: rootName, account: account)
    }

    /// The zone holding a shared root, found among the cloud's shares (any owner, any zone).
    private func ownerZone(of rootName: String, default device: Device) -> ZoneID {
        for account in cloud.accountNames {
            if let share = cloud.shares(of: account).first(where: { $0.rootRecordName == rootName }) {
                return share.zone
            }
        }
        return cloud.appZone(of: device.account ?? "")
    }
}
