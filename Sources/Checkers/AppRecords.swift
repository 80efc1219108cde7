import CloudSim
import SyncContract

/// Where an engine keeps the app's records in an account: read by the world's expectations and
/// by the checkers alike.
package enum AppRecords {
    /// The zones of an account where the engine keeps the app's records: its codec's zones,
    /// then every other live custom zone of the account's private database, sorted (zones an
    /// engine names on the fly, e.g. one per collection). Engines with one zone: the codec's.
    package static func zones(
        of account: String, cloud: CloudService, codec: any RecordCodec
    ) -> [ZoneID] {
        let declared = codec.zoneNames.map { ZoneID(owner: account, name: $0) }
        // Zones the engine makes on the fly (outbox's `Collection-*`), in the cloud's order.
        let others = cloud.zones(of: account).filter {
            !$0.isDefaultZone && !declared.contains($0)
        }
        return declared + others
    }

    /// Every record of the app in an account's zones, zone by zone in the codec's order.
    package static func records(
        of account: String, cloud: CloudService, codec: any RecordCodec
    ) -> [CloudRecord] {
        let zones = zones(of: account, cloud: cloud, codec: codec)
        // One zone's list as the cloud gives it: joined, every record was copied anew.
        if zones.count == 1 { return cloud.records(in: zones[0]) }
        return zones.flatMap { cloud.records(in: $0) }
    }

    /// The app's record of that name in an account, in the first of its zones that holds it.
    package static func record(
        named name: String, of account: String, cloud: CloudService, codec: any RecordCodec
    ) -> CloudRecord? {
        for zone in zones(of: account, cloud: cloud, codec: codec) {
            if let record = cloud.record(named: name, in: zone) { return record }
        }
        return nil
    }
}
