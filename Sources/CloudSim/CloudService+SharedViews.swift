extension CloudService {
    /// What follows a stored change of an owner zone's records or shares: the owner's
    /// database feed notes the zone changed, every participant's view is brought up to date,
    /// and pushes go to the owner's devices and to the devices of every participant whose
    /// view changed, never to the originator (sorted, each device once).
    ///
    /// `liveWithShares`, when the caller knows the zone is live, is whether it has shares.
    func propagate(
        zone: ZoneID, originator: String?, losses: [String: AccessLoss],
        liveWithShares: Bool? = nil
    ) -> (pushes: [String], notes: [CloudNote]) {
        ensureAccount(zone.owner)
        // The default zone has no change feed and no database-subscription pushes.
        guard !zone.isDefaultZone else { return ([], []) }
        accountStates.change(zone.owner) { $0.noteZoneChanged(zone) }
        let shared = refreshSharedViews(of: zone, losses: losses, liveWithShares: liveWithShares)
        let owners = pushTargets(account: zone.owner, originator: originator)
        // Without a participant's view that changed (most zones have no share), the owner's
        // devices are the pushes, already sorted and each once: no set built and sorted.
        guard !shared.changed.isEmpty else { return (owners, shared.notes) }
        let pushes = Set(owners + sharedPushTargets(shared.changed, originator: originator))
        return (pushes.sorted(), shared.notes)
    }

    /// Brings every participant's view of the zone up to the zone's records and shares: a
    /// participant that accepted a standing share gains the zone (or sees what entered,
    /// changed in or left it); one without gets it removed from its shared database, for
    /// the reason in `losses` or else `share-stopped` (`zone-deleted` when the zone is gone).
    /// Returns the participants whose view changed, sorted, and the notes.
    func refreshSharedViews(
        of zone: ZoneID, losses: [String: AccessLoss], liveWithShares: Bool? = nil
    ) -> (changed: [String], notes: [CloudNote]) {
        // Most zones have no share and no participant's view: nothing to refresh, and the
        // zone's state is not copied (nor looked up, when the caller knows) to find that out.
        let life =
            liveWithShares.map { (isLive: true, hasShares: $0) }
            ?? zoneStates.peek(zone) { (isLive: $0.isLive, hasShares: $0.hasShares) }
        let isLive = life?.isLive == true
        if !(isLive && life?.hasShares == true), !hasSharedView(of: zone) { return ([], []) }
        let state = zoneStates[zone]
        let structure = isLive && state?.hasShares == true ? state.map(ShareStructure.init) : nil
        var changed: [String] = []
        var notes: [CloudNote] = []
        for participant in viewCandidates(of: zone, structure: structure) {
            ensureAccount(participant)
            guard var account = accountStates[participant] else { continue }
            var view =
                account.sharedViews[zone] ?? SharedZoneView(participant: participant, zone: zone)
            let accepted = structure?.acceptedShares(of: participant) ?? []
            if let state, let structure, !accepted.isEmpty {
                var gained = false
                if view.isLive && view.zoneIncarnation != state.incarnation { view.end() }
                if !view.isLive {
                    view.begin(zoneIncarnation: state.incarnation)
                    account.accessLosses[zone] = nil
                    notes.append(CloudNotes.sharedZoneAdded(account: participant, zone: zone))
                    gained = true
                }
                let visible = structure.visibleNames(for: participant)
                if view.update(visible: visible, in: state) || gained {
                    account.noteSharedZoneChanged(zone)
                    changed.append(participant)
                }
            } else if view.isLive {
                view.end()
                let reason = losses[participant] ?? (isLive ? .shareStopped : .zoneDeleted)
                account.accessLosses[zone] = reason
                account.noteSharedZoneDeleted(zone)
                notes.append(
                    CloudNotes.sharedZoneRemoved(account: participant, zone: zone, reason: reason))
                changed.append(participant)
            }
            account.sharedViews[zone] = view
            accountStates[participant] = account
        }
        return (changed, notes)
    }

    /// Accounts whose view of the zone may change: those holding a live view, and the
    /// accepted participants of its shares; sorted.
    private func viewCandidates(of zone: ZoneID, structure: ShareStructure?) -> [String] {
        var candidates: Set<String> = []
        for name in accountStates.keys.sorted()
        where accountStates.peek(name, { $0.hasSharedZone(zone) }) == true {
            candidates.insert(name)
        }
        for share in structure?.shareNames ?? [] {
            for entry in structure?.shares[share]?.participants ?? []
            where entry.role != .owner && entry.acceptanceStatus == .accepted {
                candidates.insert(entry.account)
            }
        }
        return candidates.sorted()
    }

    /// Whether some account holds a view of the zone (read in place, no state copied).
    private func hasSharedView(of zone: ZoneID) -> Bool {
        // The view read where it is stored (calling `hasSharedZone` on it copied the state).
        accountStates.keys.contains { name in
            accountStates.peek(name) { $0.sharedViews[zone]?.isLive == true } == true
        }
    }
}
