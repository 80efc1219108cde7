/// The private database's default zone `_defaultZone` (Apple: every private database has it;
/// it cannot be created or deleted, it keeps no change history, so it is absent from
/// `CKFetchDatabaseChangesOperation` and database subscriptions never cover it, while query
/// subscriptions do). The literal code of the `naive` article saves there (NAIVE-15).
extension CloudService {
    /// (`ZoneID.defaultZone(of:)` and the zone's rules: CloudRecord.swift, docs/CLOUDSIM.md.)
    /// Makes the account's default zone live the first time a request names it, without an
    /// entry in the database feed (it is never reported there).
    func ensureDefaultZone(_ zone: ZoneID) {
        guard zone.isDefaultZone, zoneStates.peek(zone, { $0.isLive }) != true else { return }
        var state = zoneStates[zone] ?? ZoneState(id: zone)
        state.create()
        zoneStates[zone] = state
        ensureAccount(zone.owner)
    }
}
