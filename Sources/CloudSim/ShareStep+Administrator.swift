/// The administrator role ([CKShare.ParticipantRole] `administrator`; docs/CLOUDSIM.md
/// *Sharing*): an accepted administrator adds and removes participants and changes their
/// permissions; roles, `publicPermission` and stopping the share stay the owner's.
extension ShareStep {
    /// The share an account other than the owner manages: it must be an accepted
    /// administrator of it. Anyone else is refused as the owner's steps always refused them
    /// (`not-owner`), also when the share is missing.
    mutating func administered() -> CheckResult<Found> {
        guard case .success(let found) = find(),
            let entry = found.share.participants.first(where: { $0.account == account }),
            entry.role == .administrator, entry.acceptanceStatus == .accepted
        else {
            notes.append(
                CloudNotes.accessRefused(
                    client: client, zone: zone, reason: .notOwner, recordName: nil))
            return .failure(CloudMessages.notOwner(zone))
        }
        return .success(found)
    }

    /// An administrator invites an account or changes a participant's permission; an entry
    /// keeps its role (a new or re-invited one is `privateUser`), and asking for the
    /// `administrator` role is refused (`not-owner`).
    mutating func inviteAsAdministrator(
        _ invitee: String, permission: SharePermission, role asked: ParticipantRole
    ) -> CloudOutcome {
        let found: Found
        switch administered() {
        case .failure(let error): return failure(error)
        case .success(let value): found = value
        }
        guard asked != .administrator else {
            return refused(CloudMessages.rolesAreOwners(found.name), .notOwner)
        }
        guard permission == .readOnly || permission == .readWrite else {
            return failure(CloudMessages.invalidPermission)
        }
        guard invitee != zone.owner else { return failure(CloudMessages.ownerIsParticipant) }
        if service.accountStates[zone.owner]?.isQuotaFull == true {
            return failure(CloudMessages.quotaExceeded)
        }
        let current = found.share.participants.first { $0.account == invitee }
        let isActive = current.map { $0.acceptanceStatus != .removed } ?? false
        let role = isActive ? current?.role ?? .privateUser : .privateUser
        let share: CloudRecord
        switch invitation(of: invitee, permission: permission, role: role, into: found.share) {
        case .failure(let error): return failure(error)
        case .success(let updated): share = updated
        }
        let stored = service.storeShareStep(
            [share], delete: nil, in: zone, client: client, now: now)
        return finish(
            share: stored.first, root: found.structure.rootOfShare[found.name], stored: stored,
            losses: [:])
    }
}
