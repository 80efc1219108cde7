import Harness
import Kernel
import Scenario

/// A run event by event, with the world as the harness recorded it after each event: what
/// the HTML report's step-through shows.
public struct StepThrough: Hashable, Sendable {
    public var events: [Event]
    /// Distinct states; each event names the one after it.
    public var states: [State]
    /// Events the run had beyond `events` (the harness records the state after a run's
    /// first events only, `StepSnapshots`).
    public var omitted: Int

    public struct Event: Hashable, Sendable {
        public var time: Int64
        public var actor: String
        public var kind: String
        /// The details as short text (`model=n1 change=insert`).
        public var text: String
        public var rules: [String]
        public var state: Int
    }

    public struct State: Hashable, Sendable {
        /// Every device's models, then every account's records.
        public var tables: [StateTable]
        /// Per device, in declaration order: its pending changes as text, empty when none.
        public var pending: [Pending]
    }

    public struct Pending: Hashable, Sendable {
        public var device: String
        public var text: String
    }

    /// nil when the run took no snapshots or they cover more events than it has.
    init?(
        events: [TraceEvent], steps: StepSnapshots?, scenario: ScenarioFile,
        labels: [FinalState.LabelBinding]
    ) {
        guard let steps, steps.stateOfEvent.count <= events.count,
            !steps.stateOfEvent.isEmpty
        else { return nil }
        let labelTable = TraceDetailText.labelTable(labels)
        let detail = TraceDetailText(labels: labels)
        let shown = steps.stateOfEvent.count
        var used: [Int: Int] = [:]
        var states: [State] = []
        var list: [Event] = []
        for index in 0..<shown {
            let event = events[index]
            let original = steps.stateOfEvent[index]
            let state: Int
            if let known = used[original] {
                state = known
            } else {
                state = states.count
                used[original] = state
                states.append(Self.state(steps.states[original], scenario, labels, labelTable))
            }
            list.append(Event(
                time: event.time.microseconds, actor: event.actor, kind: event.kind,
                text: detail.fields(event.details), rules: event.rules, state: state))
        }
        self.events = list
        self.states = states
        omitted = events.count - shown
    }

    private static func state(
        _ step: StepState, _ scenario: ScenarioFile, _ labels: [FinalState.LabelBinding],
        _ labelTable: [String: String]
    ) -> State {
        var tables = step.tables
        tables.labels = labels
        let pending = step.pending.map { entry in
            let changes = entry.changes.map { labelTable[$0] ?? $0 }
            let deletions = entry.deletions.map { "delete " + (labelTable[$0] ?? $0) }
            let text = (changes + deletions).joined(separator: ", ")
            return Pending(device: entry.device, text: text)
        }
        return State(tables: StateTable.tables(tables, scenario: scenario), pending: pending)
    }
}
