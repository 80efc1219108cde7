import CloudSim
import Device
import LocalStore
import SyncContract

/// What the checkers read of the world when a run ends, read once and shared by all of them:
/// each device's observation and store, and each account's app records with an index by name.
///
/// Read apart, the convergence checker would read every record of an account once per device
/// of it, the lost-change and resurrection checkers a record by name per saved key or
/// deletion (each lookup going through the account's zones).
/// The world does not change while they run, so one reading serves them all.
final class WorldReading {
    /// An account's app records, zone by zone as `World.appRecords(of:)` lists them, and the
    /// position of each name's first occurrence (`World.appRecord(named:of:)`'s answer).
    private struct AccountRecords {
        var records: [CloudRecord]
        /// By `HashedRecordName`: `String`'s own hashing (SipHash) was most of a lookup.
        var positions: [HashedRecordName: Int]
    }

    let world: World
    /// Each device's observation and store, by device index.
    let observations: [any EngineObservation]
    let stores: [Store]
    private var accounts: [String: AccountRecords] = [:]

    init(_ world: World) {
        self.world = world
        observations = world.devices.map(\.observation)
        stores = world.devices.map(\.store)
    }

    /// `World.appRecords(of:)`, read once per account.
    func appRecords(of account: String) -> [CloudRecord] {
        records(of: account).records
    }

    /// `World.appRecord(named:of:)`: the record in the first of the account's app zones that
    /// holds the name.
    func appRecord(named name: String, of account: String) -> CloudRecord? {
        let read = records(of: account)
        return read.positions[HashedRecordName(name)].map { read.records[$0] }
    }

    /// Whether `appRecord(named:of:)` finds a record, told without copying it out.
    func hasAppRecord(named name: String, of account: String) -> Bool {
        records(of: account).positions[HashedRecordName(name)] != nil
    }

    private func records(of account: String) -> AccountRecords {
        if let read = accounts[account] { return read }
        let records = world.appRecords(of: account)
        var positions: [HashedRecordName: Int] = [:]
        positions.reserveCapacity(records.count)
        // From the last back, each position stored over any later one: the first occurrence
        // wins with one hash of its name, not two, and no record is copied to read its name.
        for position in records.indices.reversed() {
            positions[HashedRecordName(records[position].recordName)] = position
        }
        let read = AccountRecords(records: records, positions: positions)
        accounts[account] = read
        return read
    }
}
