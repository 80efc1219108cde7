import CloudSim

extension World {
    /// The zones of an account where the engine keeps the app's records: its codec's zones,
    /// then every other live custom zone of the account's private database, sorted (zones an
    /// engine names on the fly, e.g. one per collection). Engines with one zone: the codec's.
    func appZones(of account: String) -> [ZoneID] {
        let declared = codec.zoneNames.map { ZoneID(owner: account, name: $0) }
        // Zones the engine makes on the fly (outbox's `Collection-*`), in the cloud's order.
        let others = cloud.zones(of: account).filter {
            !$0.isDefaultZone && !declared.contains($0)
        }
        return declared + others
    }

    /// Every record of the app in an account's zones, zone by zone in the codec's order.
    func appRecords(of account: String) -> [CloudRecord] {
        appZones(of: account).flatMap { cloud.records(in: $0) }
    }

    /// The app's record of that name in an account, in the first of its zones that holds it.
    func appRecord(named name: String, of account: String) -> CloudRecord? {
        for zone in appZones(of: account) {
            if let record = cloud.record(named: name, in: zone) { return record }
        }
        return nil
    }
}
