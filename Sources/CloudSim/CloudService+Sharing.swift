import Kernel

// MARK: Share steps (`.share` requests and the world's calls for the scenario statements)

extension CloudService {
    /// At most this many participants per share, the owner included ([CKShare]: at most 100;
    /// docs/CLOUDSIM.md *Sharing*).
    public static let maxShareParticipants = 100

    /// `share ROOT with ACCOUNT read-write|read-only`: the owner's device creates the
    /// hierarchy share of `rootRecordName` when it has none and invites `account` (or changes
    /// its permission). The root must exist (`unknownItem`); whether its entity is sharable
    /// is for the caller to know.
    public func share(
        rootRecordName: String, in zone: ZoneID, with account: String,
        permission: SharePermission, by client: CloudClient, now: SimTime
    ) -> CloudOutcome {
        shareAction(
            .invite(account: account, permission: permission),
            on: .rootRecord(rootRecordName), in: zone, by: client, now: now)
    }

    /// `accept share ROOT`: a device signed into an invited account accepts.
    public func acceptShare(
        rootRecordName: String, ownerZone: ZoneID, by client: CloudClient, now: SimTime
    ) -> CloudOutcome {
        shareAction(.accept, on: .rootRecord(rootRecordName), in: ownerZone, by: client, now: now)
    }

    /// `unshare ROOT`: the owner stops sharing (deletes the share record).
    public func unshare(
        rootRecordName: String, ownerZone: ZoneID, by client: CloudClient, now: SimTime
    ) -> CloudOutcome {
        shareAction(.stop, on: .rootRecord(rootRecordName), in: ownerZone, by: client, now: now)
    }

    /// `remove ACCOUNT from ROOT`: the owner removes one participant.
    public func removeParticipant(
        _ account: String, rootRecordName: String, ownerZone: ZoneID, by client: CloudClient,
        now: SimTime
    ) -> CloudOutcome {
        shareAction(
            .removeParticipant(account: account), on: .rootRecord(rootRecordName),
            in: ownerZone, by: client, now: now)
    }

    /// `leave share ROOT`: a participant leaves (or declines a pending invitation).
    public func leaveShare(
        rootRecordName: String, ownerZone: ZoneID, by client: CloudClient, now: SimTime
    ) -> CloudOutcome {
        shareAction(.leave, on: .rootRecord(rootRecordName), in: ownerZone, by: client, now: now)
    }

    /// Any share step, hierarchy or zone-wide: the same as the `.share` request arriving now
    /// (outage, authentication and throttling apply as to every request).
    public func shareAction(
        _ action: ShareAction, on target: ShareTarget, in zone: ZoneID, by client: CloudClient,
        now: SimTime
    ) -> CloudOutcome {
        handle(.share(zone: zone, target: target, action: action), from: client, now: now)
    }

    /// Dispatches a `.share` request after the operation-level checks.
    func handleShare(
        zone: ZoneID, target: ShareTarget, action: ShareAction, client: CloudClient,
        account: String, now: SimTime
    ) -> CloudOutcome {
        if zone.isDefaultZone {
            // The default zone has no `sharing` capability ([CKRecordZone] `default()`).
            return CloudOutcome(response: .failure(CloudMessages.defaultZoneHasNoSharing))
        }
        var step = ShareStep(
            service: self, zone: zone, target: target, client: client, account: account,
            now: now)
        switch action {
        case .invite(let invitee, let permission, let role):
            return step.invite(invitee, permission: permission, role: role)
        case .setPublicPermission(let permission):
            return step.setPublicPermission(permission)
        case .accept:
            return step.accept()
        case .removeParticipant(let removee):
            return step.remove(removee)
        case .stop:
            return step.stop()
        case .leave:
            return step.leave()
        }
    }

    /// Stores share-step writes in a zone as the client's step: each record gets a new
    /// change tag, times and device; `delete` names a share record to delete. Returns the
    /// records as stored, in order.
    func storeShareStep(
        _ records: [CloudRecord], delete: String?, in zone: ZoneID, client: CloudClient,
        now: SimTime
    ) -> [CloudRecord] {
        // Taken out and put back, so the writes change the only copy of the zone's records.
        guard zoneStates.peek(zone, { $0.isLive }) == true, var state = takeLiveZoneState(zone)
        else { preconditionFailure("a share step writes into a live zone") }
        var stored: [CloudRecord] = []
        for var record in records {
            changeTagCounter += 1
            record.changeTag = RecordBatch.changeTag(changeTagCounter)
            let previous = state.records[record.recordName]?.record
            record.creationTime = previous?.creationTime ?? now
            record.modificationTime = now
            record.lastModifiedBy = client.device
            let account = client.account == zone.owner ? nil : client.account
            record.creatorAccount = previous == nil ? account : previous?.creatorAccount
            record.lastModifierAccount = account
            state.write(record)
            stored.append(record)
        }
        if let delete { state.delete(named: delete) }
        zoneStates[zone] = state
        return stored
    }
}
