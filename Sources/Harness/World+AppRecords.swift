import CloudSim
import Checkers

extension World {
    /// `AppRecords.zones(of:cloud:codec:)` for this world's cloud and engine.
    func appZones(of account: String) -> [ZoneID] {
        AppRecords.zones(of: account, cloud: cloud, codec: codec)
    }

    /// Every record of the app in an account's zones, zone by zone in the codec's order.
    func appRecords(of account: String) -> [CloudRecord] {
        AppRecords.records(of: account, cloud: cloud, codec: codec)
    }

    /// The app's record of that name in an account, in the first of its zones that holds it.
    func appRecord(named name: String, of account: String) -> CloudRecord? {
        AppRecords.record(named: name, of: account, cloud: cloud, codec: codec)
    }
}
