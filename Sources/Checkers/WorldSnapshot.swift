import CloudSim
import LocalStore
import SyncContract

/// What the checkers read of a world when a run ends, taken once and shared by all of them:
/// each device's state, observation and store, the cloud, and what the engine declares.
///
/// The checkers read this and the save ledger only, never the world that made them.
package struct WorldSnapshot {
    /// One device as the checkers see it. A class: the checkers read a device's state
    /// thousands of times a run, and a struct of eight references was copied at each read.
    package final class DeviceState {
        package let name: String
        /// The account the device is signed into; nil when signed out.
        package let account: String?
        package let isOnline: Bool
        package let isRunning: Bool
        package let observation: any EngineObservation
        package let store: Store
        /// What the device's app version synchronizes (an extension: its app's).
        package let recordingView: SyncView?
        /// The engine's rules that fired on the device.
        package let firedRules: Set<String>

        package init(
            name: String, account: String?, isOnline: Bool, isRunning: Bool,
            observation: any EngineObservation, store: Store, recordingView: SyncView?,
            firedRules: Set<String>
        ) {
            self.name = name
            self.account = account
            self.isOnline = isOnline
            self.isRunning = isRunning
            self.observation = observation
            self.store = store
            self.recordingView = recordingView
            self.firedRules = firedRules
        }

        package var isSignedIn: Bool { account != nil }
    }

    package let devices: [DeviceState]
    /// The cloud's read-only face: held by reference, not copied (a copy of every zone and
    /// record of every account would cost more than the checks); the checkers only read it.
    package let cloud: CloudService
    package let schema: Schema
    package let catalogue: RuleCatalogue
    /// How the engine lays records out in iCloud.
    package let codec: any RecordCodec
    /// The engine's rules that fired in the cloud; they count for every device.
    package let cloudFiredRules: Set<String>
    /// Each account's app records, read once and shared by every checker and copy.
    private let accounts: AccountRecordIndex

    package init(
        devices: [DeviceState], cloud: CloudService, schema: Schema, catalogue: RuleCatalogue,
        codec: any RecordCodec, cloudFiredRules: Set<String>
    ) {
        self.devices = devices
        self.cloud = cloud
        self.schema = schema
        self.catalogue = catalogue
        self.codec = codec
        self.cloudFiredRules = cloudFiredRules
        accounts = AccountRecordIndex(cloud: cloud, codec: codec)
    }

    /// Whether a rule fired on any device or in the cloud.
    package func fired(_ rule: String) -> Bool {
        cloudFiredRules.contains(rule) || devices.contains { $0.firedRules.contains(rule) }
    }

    /// `AppRecords.records(of:cloud:codec:)`, read once per account.
    package func appRecords(of account: String) -> [CloudRecord] {
        accounts.records(of: account).records
    }

    /// `AppRecords.record(named:of:cloud:codec:)`: the record in the first of the account's
    /// app zones that holds the name.
    package func appRecord(named name: String, of account: String) -> CloudRecord? {
        let read = accounts.records(of: account)
        return read.positions[HashedRecordName(name)].map { read.records[$0] }
    }

    /// Whether `appRecord(named:of:)` finds a record, told without copying it out.
    package func hasAppRecord(named name: String, of account: String) -> Bool {
        accounts.records(of: account).positions[HashedRecordName(name)] != nil
    }

    /// Whether one of the account's app zones keeps a tombstone of the record: it was
    /// deleted there and not created again.
    package func hasAppTombstone(named name: String, of account: String) -> Bool {
        AppRecords.zones(of: account, cloud: cloud, codec: codec).contains { zone in
            cloud.tombstones(in: zone).contains { $0.recordName == name }
        }
    }
}

/// An account's app records with an index by name, read lazily.
///
/// Read apart, the convergence checker would read every record of an account once per device
/// of it, the lost-change and resurrection checkers a record by name per saved key or
/// deletion (each lookup going through the account's zones). A class, so that every copy of
/// the snapshot shares what was read; the cloud does not change while the checkers run.
private final class AccountRecordIndex {
    struct AccountRecords {
        var records: [CloudRecord]
        /// By `HashedRecordName`: `String`'s own hashing (SipHash) was most of a lookup.
        var positions: [HashedRecordName: Int]
    }

    let cloud: CloudService
    let codec: any RecordCodec
    private var accounts: [String: AccountRecords] = [:]
    /// The account read last, with its records: the checkers ask for one account many times
    /// in a row, and each lookup hashed its name.
    private var last: (account: String, read: AccountRecords)?

    init(cloud: CloudService, codec: any RecordCodec) {
        self.cloud = cloud
        self.codec = codec
    }

    func records(of account: String) -> AccountRecords {
        if let last, last.account == account { return last.read }
        if let read = accounts[account] {
            last = (account, read)
            return read
        }
        let records = AppRecords.records(of: account, cloud: cloud, codec: codec)
        var positions: [HashedRecordName: Int] = [:]
        positions.reserveCapacity(records.count)
        // From the last back, each position stored over any later one: the first occurrence
        // wins with one hash of its name, not two, and no record is copied to read its name.
        for position in records.indices.reversed() {
            positions[HashedRecordName(records[position].recordName)] = position
        }
        let read = AccountRecords(records: records, positions: positions)
        accounts[account] = read
        last = (account, read)
        return read
    }
}
