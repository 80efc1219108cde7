/// `publicPermission` ([CKShare] `publicPermission`, [CKShare.ParticipantRole] `publicUser`;
/// docs/CLOUDSIM.md *Sharing*): above `none`, anyone with the share's URL joins with that
/// permission as a `publicUser`; back to `none`, every public participant is removed.
extension ShareStep {
    /// The owner sets the share's public permission, creating the share when the target has
    /// none. Public participants follow a new permission, or are removed by `none`.
    mutating func setPublicPermission(_ permission: SharePermission) -> CloudOutcome {
        guard isOwner else { return refused(CloudMessages.notOwner(zone), .notOwner) }
        guard let state = service.zoneStates[zone], state.isLive else {
            return failure(service.missingZoneError(zone))
        }
        guard permission != .unknown else { return failure(CloudMessages.invalidPermission) }
        var (share, root, rootName): (CloudRecord, CloudRecord?, String?)
        switch ownerShare(in: state) {
        case .failure(let error): return failure(error)
        case .success(let made): (share, root, rootName) = made
        }
        if root == nil && share.changeTag != nil && share.publicPermission == permission {
            return unchanged(share, root: rootName)
        }
        share.publicPermission = permission
        var losses: [String: AccessLoss] = [:]
        for index in share.participants.indices where share.participants[index].isPublicMember {
            if permission == .none {
                share.participants[index].acceptanceStatus = .removed
                losses[share.participants[index].account] = .removed
            } else {
                share.participants[index].permission = permission
            }
        }
        notes.append(
            CloudNotes.sharePublicPermission(
                zone: zone, share: share.recordName, permission: permission,
                device: client.device))
        let stored = service.storeShareStep(
            [share] + (root.map { [$0] } ?? []), delete: nil, in: zone, client: client, now: now)
        for account in losses.keys.sorted() {
            service.ensureAccount(account)
            service.accountStates[account]?.accessLosses[zone] = .removed
        }
        return finish(share: stored.first, root: rootName, stored: stored, losses: losses)
    }

    /// An account with the URL of a public share joins it: a `publicUser` entry, accepted at
    /// once with the share's public permission (at most 100 participants, as for invitations).
    mutating func join(_ found: Found) -> CloudOutcome {
        var share = found.share
        let entry = ShareParticipant(
            account: account, role: .publicUser, permission: share.publicPermission,
            acceptanceStatus: .accepted)
        if let index = share.participants.firstIndex(where: { $0.account == account }) {
            share.participants[index] = entry
        } else {
            let active = share.participants.filter { $0.acceptanceStatus != .removed }.count
            guard active < CloudService.maxShareParticipants else {
                return failure(
                    CloudMessages.tooManyParticipants(maximum: CloudService.maxShareParticipants))
            }
            share.participants.append(entry)
        }
        let stored = service.storeShareStep(
            [share], delete: nil, in: zone, client: client, now: now)
        notes.append(
            CloudNotes.shareMembership(
                "share.joined", zone: zone, share: found.name, account: account,
                device: client.device))
        return finish(
            share: stored.first, root: found.structure.rootOfShare[found.name], stored: stored,
            losses: [:])
    }
}

extension ShareParticipant {
    /// A public participant still in the share.
    var isPublicMember: Bool { role == .publicUser && acceptanceStatus != .removed }

    /// Whether this entry may (re)join by URL: a public participant who left or was removed
    /// by `none`. An invited account uses its invitation; one the owner removed stays out.
    var mayJoinByURL: Bool { role == .publicUser && acceptanceStatus == .removed }
}
