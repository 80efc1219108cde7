// MARK: Inspection of shares and shared databases (expectations, checkers, tests)

extension CloudService {
    /// The live shares of an account's zones, sorted by zone, then share record name.
    public func shares(of account: String) -> [ShareInfo] {
        zones(of: account).flatMap { zone -> [ShareInfo] in
            guard let state = zoneStates[zone], state.hasShares else { return [] }
            let structure = ShareStructure(zone: state)
            return structure.shareNames.compactMap { structure.info(of: $0, zone: zone) }
        }
    }

    /// The live share of a root record (or the zone-wide share) of an owner zone.
    public func share(of target: ShareTarget, in zone: ZoneID) -> ShareInfo? {
        guard let state = zoneStates[zone], state.isLive, state.hasShares else { return nil }
        let structure = ShareStructure(zone: state)
        return structure.shareName(of: target).flatMap { structure.info(of: $0, zone: zone) }
    }

    /// The owner zones in an account's shared database (it accepted a share that stands),
    /// sorted.
    public func sharedZones(of participant: String) -> [ZoneID] {
        guard let state = accountStates[participant] else { return [] }
        return state.sharedViews.keys.sorted().filter { state.hasSharedZone($0) }
    }

    /// The records of an owner zone an account can see, sorted by name: every record for the
    /// owner; for another account, the records of the shares it accepted (their share
    /// records included), or nothing.
    public func visibleRecords(in zone: ZoneID, for account: String) -> [CloudRecord] {
        guard account != zone.owner else { return records(in: zone) }
        guard let state = zoneStates[zone], state.isLive, state.hasShares else { return [] }
        let structure = ShareStructure(zone: state)
        return structure.visibleNames(for: account).compactMap { state.records[$0]?.record }
    }

    /// Why an account last lost (or was refused) an owner zone in its shared database, if it
    /// ever had or was invited to it and does not now.
    public func accessLoss(of account: String, to zone: ZoneID) -> AccessLoss? {
        guard let state = accountStates[account], !state.hasSharedZone(zone) else { return nil }
        return state.accessLosses[zone]
    }
}
