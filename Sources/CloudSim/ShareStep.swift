import Kernel

/// One share step (invite, accept, remove a participant, stop, leave) on a share of an
/// owner zone: its checks in order, the first failing one being the answer with nothing
/// changed; then the writes into the owner's zone (new change tags, as a save of the share
/// record would give); then what follows for feeds, views, pushes and notes.
struct ShareStep {
    let service: CloudService
    let zone: ZoneID
    let target: ShareTarget
    let client: CloudClient
    let account: String
    let now: SimTime
    var notes: [CloudNote] = []

    init(
        service: CloudService, zone: ZoneID, target: ShareTarget, client: CloudClient,
        account: String, now: SimTime
    ) {
        self.service = service
        self.zone = zone
        self.target = target
        self.client = client
        self.account = account
        self.now = now
    }

    var isOwner: Bool { account == zone.owner }

    /// A share found by its target in a live zone.
    struct Found {
        var state: ZoneState
        var structure: ShareStructure
        var share: CloudRecord
        var name: String { share.recordName }
    }

    /// Owner: not the owner → `permissionFailure` (`not-owner`); zone not live → its error;
    /// no such share → `unknownItem`. Participant: zone or share missing → `unknownItem`.
    func find() -> CheckResult<Found> {
        guard let state = service.zoneStates[zone], state.isLive else {
            return .failure(
                isOwner ? service.missingZoneError(zone) : CloudMessages.shareNotFound(target))
        }
        let structure = ShareStructure(zone: state)
        guard let name = structure.shareName(of: target), let share = structure.shares[name]
        else { return .failure(CloudMessages.shareNotFound(target)) }
        return .success(Found(state: state, structure: structure, share: share))
    }

    // MARK: Owner steps

    /// Creates the share when the target has none, then invites the account (pending) or
    /// changes its permission and role; a removed participant is invited again. Another
    /// account's invitation is an administrator's (`inviteAsAdministrator`).
    mutating func invite(
        _ invitee: String, permission: SharePermission, role: ParticipantRole
    ) -> CloudOutcome {
        guard isOwner else {
            return inviteAsAdministrator(invitee, permission: permission, role: role)
        }
        guard let state = service.zoneStates[zone], state.isLive else {
            return failure(service.missingZoneError(zone))
        }
        guard permission == .readOnly || permission == .readWrite else {
            return failure(CloudMessages.invalidPermission)
        }
        guard role == .privateUser || role == .administrator else {
            return failure(CloudMessages.invalidRole)
        }
        guard invitee != zone.owner else { return failure(CloudMessages.ownerIsParticipant) }
        var (share, root, rootName): (CloudRecord, CloudRecord?, String?)
        switch ownerShare(in: state) {
        case .failure(let error): return failure(error)
        case .success(let made): (share, root, rootName) = made
        }
        switch invitation(of: invitee, permission: permission, role: role, into: share) {
        case .failure(let error): return failure(error)
        case .success(let updated): share = updated
        }
        let stored = service.storeShareStep(
            [share] + (root.map { [$0] } ?? []), delete: nil, in: zone, client: client, now: now)
        return finish(share: stored.first, root: rootName, stored: stored, losses: [:])
    }

    /// The target's share, or a new one (noted) with its root to write when it has none; the
    /// owner's quota must have room, since the step writes either.
    mutating func ownerShare(
        in state: ZoneState
    ) -> CheckResult<(CloudRecord, CloudRecord?, String?)> {
        let structure = ShareStructure(zone: state)
        var share: CloudRecord
        var root: CloudRecord?
        let isNew: Bool
        if let name = structure.shareName(of: target), let existing = structure.shares[name] {
            share = existing
            isNew = false
        } else {
            switch newShare(in: state, structure: structure) {
            case .failure(let error): return .failure(error)
            case .success(let made): (share, root) = made
            }
            isNew = true
        }
        if service.accountStates[zone.owner]?.isQuotaFull == true {
            return .failure(CloudMessages.quotaExceeded)
        }
        let rootName = root?.recordName ?? structure.rootOfShare[share.recordName]
        if isNew {
            let info = ShareInfo(
                shareRecordName: share.recordName, zone: zone, rootRecordName: rootName,
                participants: share.participants)
            notes.append(CloudNotes.shareCreated(info, by: client.device))
        }
        return .success((share, root, rootName))
    }

    /// The share record and root for a target without a share: the zone-wide share needs a
    /// zone without hierarchy shares; a hierarchy share needs an existing, non-share root,
    /// not below another root nor above one, in a zone not shared as a whole.
    func newShare(
        in state: ZoneState, structure: ShareStructure
    ) -> CheckResult<(CloudRecord, CloudRecord?)> {
        let owner = [ShareParticipant.owner(zone.owner)]
        switch target {
        case .zone:
            guard structure.shareOfRoot.isEmpty else {
                return .failure(CloudMessages.zoneHasHierarchyShares(zone))
            }
            var share = CloudRecord(
                recordType: CloudRecord.shareRecordType,
                recordName: CloudRecord.zoneShareRecordName, zone: zone)
            share.participants = owner
            return .success((share, nil))
        case .rootRecord(let rootName):
            guard var root = state.records[rootName]?.record else {
                return .failure(CloudMessages.unknownItem)
            }
            if root.isShare { return .failure(CloudMessages.shareAsRoot(rootName)) }
            if structure.zoneShare != nil { return .failure(CloudMessages.zoneSharedWhole(zone)) }
            if let above = structure.shareAbove(rootName) {
                return .failure(CloudMessages.belowSharedParent(rootName, share: above))
            }
            if structure.hasRoot(below: rootName, includingSelf: false) {
                return .failure(CloudMessages.aboveSharedChild(rootName))
            }
            let name = CloudRecord.shareRecordName(forRoot: rootName)
            if let taken = state.records[name]?.record {
                return .failure(CloudMessages.insertCollision(taken))
            }
            var share = CloudRecord(
                recordType: CloudRecord.shareRecordType, recordName: name, zone: zone)
            share.participants = owner
            root.share = name
            return .success((share, root))
        }
    }

    /// The share with the account invited, or its permission or role changed.
    mutating func invitation(
        of invitee: String, permission: SharePermission, role: ParticipantRole,
        into share: CloudRecord
    ) -> CheckResult<CloudRecord> {
        var share = share
        let info = ShareInfo(
            shareRecordName: share.recordName, zone: zone, rootRecordName: nil,
            participants: share.participants)
        if let index = share.participants.firstIndex(where: { $0.account == invitee }) {
            var entry = share.participants[index]
            let isActive = entry.acceptanceStatus != .removed
            if isActive && entry.permission == permission && entry.role == role {
                return .failure(
                    CloudMessages.participantAlreadyInvited(invitee, share: share.recordName))
            }
            let kind = !isActive ? "share.invited"
                : entry.permission != permission ? "share.permission-changed" : "share.role-changed"
            entry.permission = permission
            entry.role = role
            if !isActive { entry.acceptanceStatus = .pending }
            share.participants[index] = entry
            notes.append(
                CloudNotes.shareParticipant(
                    kind, share: info, account: invitee, permission: permission, role: role,
                    device: client.device))
            return .success(share)
        }
        let active = share.participants.filter { $0.acceptanceStatus != .removed }.count
        guard active < CloudService.maxShareParticipants else {
            return .failure(
                CloudMessages.tooManyParticipants(maximum: CloudService.maxShareParticipants))
        }
        share.participants.append(
            ShareParticipant(
                account: invitee, role: role, permission: permission,
                acceptanceStatus: .pending))
        notes.append(
            CloudNotes.shareParticipant(
                "share.invited", share: info, account: invitee, permission: permission,
                role: role, device: client.device))
        return .success(share)
    }

    /// The owner or an administrator removes a participant (pending or accepted): its entry
    /// becomes `removed`.
    mutating func remove(_ removee: String) -> CloudOutcome {
        let found: Found
        switch isOwner ? find() : administered() {
        case .failure(let error): return failure(error)
        case .success(let value): found = value
        }
        guard removee != zone.owner else { return failure(CloudMessages.ownerIsParticipant) }
        var share = found.share
        guard let index = share.participants.firstIndex(where: { $0.account == removee }),
            share.participants[index].acceptanceStatus != .removed
        else { return failure(CloudMessages.notAParticipant(removee, share: found.name)) }
        share.participants[index].acceptanceStatus = .removed
        let stored = service.storeShareStep(
            [share], delete: nil, in: zone, client: client, now: now)
        service.ensureAccount(removee)
        service.accountStates[removee]?.accessLosses[zone] = .removed
        notes.append(
            CloudNotes.shareMembership(
                "share.participant-removed", zone: zone, share: found.name, account: removee,
                device: client.device))
        return finish(
            share: stored.first, root: found.structure.rootOfShare[found.name], stored: stored,
            losses: [removee: .removed])
    }

    /// The owner stops sharing: the share record is deleted and the root's `share` cleared.
    /// (An administrator may not: only participants are theirs to change.)
    mutating func stop() -> CloudOutcome {
        guard isOwner else { return refused(CloudMessages.notOwner(zone), .notOwner) }
        let found: Found
        switch find() {
        case .failure(let error): return failure(error)
        case .success(let value): found = value
        }
        let rootName = found.structure.rootOfShare[found.name]
        var written: [CloudRecord] = []
        if let rootName, var root = found.state.records[rootName]?.record {
            root.share = nil
            written.append(root)
        }
        let stored = service.storeShareStep(
            written, delete: found.name, in: zone, client: client, now: now)
        for entry in found.share.participants where entry.role != .owner {
            guard entry.acceptanceStatus != .removed else { continue }
            service.ensureAccount(entry.account)
            service.accountStates[entry.account]?.accessLosses[zone] = .shareStopped
        }
        notes.append(
            CloudNotes.shareDeleted(
                zone: zone, share: found.name, root: rootName, reason: "stopped",
                device: client.device))
        return finish(share: nil, root: nil, stored: stored, losses: [:])
    }

    // MARK: Participant steps

    /// An invited account accepts: pending → accepted, and the zone enters its shared
    /// database. Accepting again, or as the owner, changes nothing. Anyone else joins a
    /// public share (`join`).
    mutating func accept() -> CloudOutcome {
        let found: Found
        switch find() {
        case .failure(let error): return failure(error)
        case .success(let value): found = value
        }
        let rootName = found.structure.rootOfShare[found.name]
        var share = found.share
        let entry = share.participants.first { $0.account == account }
        if !isOwner, share.publicPermission != .none, entry.map(\.mayJoinByURL) ?? true {
            return join(found)
        }
        guard let index = share.participants.firstIndex(where: { $0.account == account }) else {
            return refused(CloudMessages.notInvited(found.name), .notInvited)
        }
        switch share.participants[index].acceptanceStatus {
        case .removed, .unknown:
            return refused(CloudMessages.notInvited(found.name), lossReason(default: .removed))
        case .accepted:
            return unchanged(share, root: rootName)
        case .pending:
            break
        }
        share.participants[index].acceptanceStatus = .accepted
        let stored = service.storeShareStep(
            [share], delete: nil, in: zone, client: client, now: now)
        notes.append(
            CloudNotes.shareMembership(
                "share.accepted", zone: zone, share: found.name, account: account,
                device: client.device))
        return finish(share: stored.first, root: rootName, stored: stored, losses: [:])
    }

    /// A participant leaves (accepted) or declines (pending): its entry becomes `removed`.
    mutating func leave() -> CloudOutcome {
        let found: Found
        switch find() {
        case .failure(let error): return failure(error)
        case .success(let value): found = value
        }
        guard !isOwner else { return failure(CloudMessages.ownerIsParticipant) }
        var share = found.share
        guard let index = share.participants.firstIndex(where: { $0.account == account }),
            share.participants[index].acceptanceStatus != .removed
        else {
            let known = share.participants.contains { $0.account == account }
            let reason = known ? lossReason(default: .removed) : .notInvited
            return refused(CloudMessages.notInvited(found.name), reason)
        }
        share.participants[index].acceptanceStatus = .removed
        _ = service.storeShareStep([share], delete: nil, in: zone, client: client, now: now)
        service.accountStates[account]?.accessLosses[zone] = .left
        notes.append(
            CloudNotes.shareMembership(
                "share.left", zone: zone, share: found.name, account: account,
                device: client.device))
        return finish(share: nil, root: nil, stored: [], losses: [account: .left])
    }

    // MARK: Outcomes

    /// The reason an earlier loss left, for refusing a removed participant.
    func lossReason(default reason: RefusalReason) -> RefusalReason {
        service.accountStates[account]?.accessLosses[zone].map(RefusalReason.init) ?? reason
    }

    func failure(_ error: CloudError) -> CloudOutcome {
        CloudOutcome(response: .failure(error), notes: notes)
    }

    mutating func refused(_ error: CloudError, _ reason: RefusalReason) -> CloudOutcome {
        notes.append(
            CloudNotes.accessRefused(client: client, zone: zone, reason: reason, recordName: nil))
        return failure(error)
    }

    func unchanged(_ share: CloudRecord, root: String?) -> CloudOutcome {
        let info = ShareInfo(
            shareRecordName: share.recordName, zone: zone, rootRecordName: root,
            participants: share.participants, publicPermission: share.publicPermission)
        return CloudOutcome(response: .shareModified(share: info, records: []), notes: notes)
    }

    /// After the writes: the owner's feed, the participants' views, pushes (never to the
    /// originating device) and the answer.
    func finish(
        share: CloudRecord?, root: String?, stored: [CloudRecord], losses: [String: AccessLoss]
    ) -> CloudOutcome {
        let effects = service.propagate(zone: zone, originator: client.device, losses: losses)
        let info = share.map {
            ShareInfo(
                shareRecordName: $0.recordName, zone: zone, rootRecordName: root,
                participants: $0.participants, publicPermission: $0.publicPermission)
        }
        return CloudOutcome(
            response: .shareModified(share: info, records: stored), pushes: effects.pushes,
            notes: notes + effects.notes)
    }
}
