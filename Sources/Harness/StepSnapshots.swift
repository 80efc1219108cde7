import CloudSim
import Device
import LocalStore

/// The world as it stood right after each trace event: every device's models and pending
/// changes, every account's records. A report's step-through shows these, so a reader sees
/// what the run really held at each event instead of a state re-derived from the trace.
///
/// Consecutive events that leave the world alike share one state, so a run of a few hundred
/// events holds a few dozen states. Everything is rows of text in a fixed order. A long or
/// large run is covered from its start only (`StepRecorder.maxEvents`, `maxRows`).
public struct StepSnapshots: Hashable, Sendable {
    /// Distinct states, in the order the run first reached them.
    public var states: [StepState]
    /// For the first trace events, in trace order, the index in `states` of the world after
    /// each; shorter than the trace when the recorder reached a bound.
    public var stateOfEvent: [Int]

    public init(states: [StepState] = [], stateOfEvent: [Int] = []) {
        self.states = states
        self.stateOfEvent = stateOfEvent
    }
}

/// One moment of a run: the tables of `FinalState` (without labels) and each device's
/// pending changes.
public struct StepState: Hashable, Sendable {
    public var tables: FinalState
    /// One entry per declared device, in declaration order.
    public var pending: [Pending]

    public init(tables: FinalState, pending: [Pending]) {
        self.tables = tables
        self.pending = pending
    }

    /// Models and records over every table.
    var rowCount: Int {
        tables.devices.reduce(0) { $0 + $1.models.count }
            + tables.accounts.reduce(0) { $0 + $1.records.count }
    }

    /// Record names a device has yet to upload (changed models, then deletions), sorted.
    public struct Pending: Hashable, Sendable {
        public var device: String
        public var changes: [String]
        public var deletions: [String]

        public init(device: String, changes: [String], deletions: [String]) {
            self.device = device
            self.changes = changes
            self.deletions = deletions
        }
    }
}

/// Takes a `StepState` each time the world records a trace event (`RunOptions.recordSteps`).
final class StepRecorder {
    /// The most events covered: a page steps through a run's start, not a whole sweep.
    static let maxEvents = 2_000
    /// The most rows kept over all states: a run over thousands of records would otherwise
    /// keep thousands of copies of them (and a report would print them).
    static let maxRows = 20_000

    private(set) var snapshots = StepSnapshots()
    private var rows = 0
    private var full = false

    func note(_ world: World) {
        guard !full else { return }
        let state = world.stepState()
        if snapshots.states.last != state {
            rows += state.rowCount
            guard rows <= Self.maxRows else { full = true; return }
            snapshots.states.append(state)
        }
        snapshots.stateOfEvent.append(snapshots.states.count - 1)
        full = snapshots.stateOfEvent.count >= Self.maxEvents
    }
}

extension World {
    /// The state now, read without resolving labels (that would bind them earlier than a run
    /// without snapshots does).
    func stepState() -> StepState {
        var deviceTables: [FinalState.DeviceTable] = []
        var pending: [StepState.Pending] = []
        for device in devices {
            let observation = device.observation
            deviceTables.append(Self.deviceTable(of: device))
            let changes = observation.pendingModels.map { id in
                observation.recordName(of: id) ?? "model \(id)"
            }
            pending.append(StepState.Pending(
                device: device.name, changes: changes.sorted(),
                deletions: observation.pendingDeletions.sorted()))
        }
        let accounts = cloud.accountNames.map { account in
            FinalState.AccountTable(account: account, records: appRecords(of: account).map {
                record in
                FinalState.Row(entity: record.recordType, name: record.recordName,
                    fields: record.sortedKeys.map { key in
                        FinalState.Field(
                            key: key, value: record.fields[key].map(World.describe) ?? "nil")
                    })
            })
        }
        return StepState(
            tables: FinalState(devices: deviceTables, accounts: accounts), pending: pending)
    }
}
