import CloudSim

extension World {
    /// The zones of an account where the engine keeps the app's records (its codec's zones).
    func appZones(of account: String) -> [ZoneID] {
        let named = codec.zoneNames.map { ZoneID(owner: account, name: $0) }
        // Zones the engine makes on the fly (outbox's `Collection-*`), in the cloud's order.
        let more = cloud.zones(of: account).filter {
            !codec.zoneNames.contains($0.name) && codec.holdsRecords(inZoneNamed: $0.name)
        }
        return named + more
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
