import Harness
import Kernel
import Scenario

/// Turns a trace into the rows of a sequence diagram, in trace order.
///
/// Arrows stand where they arrive (a request where the cloud handles it, an answer where the
/// device receives it) and carry both times in their label, so what a participant does next
/// always comes after what it received. Events of kinds it does not know are left out unless
/// they cite rules, so new trace kinds never break a report.
struct SequenceBuilder {
    /// Device actions that are faults of the device's world rather than a user's edits.
    static let faultActions: Set<String> = [
        "kill", "offline", "online", "lose-store", "rebuild-store",
        "account-unavailable", "account-available", "account-status available",
        "account-status restricted", "account-status couldNotDetermine",
        "account-status temporarilyUnavailable",
    ]
    /// Device events without rules that are still worth a note.
    static let infoKinds: Set<String> = [
        "app.launched", "app.killed", "network.offline", "network.online", "sync.failed",
        "store.batch-deleted", "store.lost", "store.rebuilt",
    ]

    let participants: [String]
    let source: SourceLines
    let text: TraceDetailText
    let limits: DiagramLimits
    var steps: [SequenceStep] = []
    /// Requests sent and not handled yet: `device␟request` → when and what.
    var requests: [String: (time: Int64, kind: String, text: String)] = [:]
    /// Requests handled and not answered yet: `device␟request` → when and what.
    var handled: [String: (time: Int64, kind: String)] = [:]
    /// Per device, when each push on its way was sent (oldest first).
    var pushes: [String: [Int64]] = [:]
    var ruleNote: PendingRuleNote?
    var group: OpenGroup?

    /// The diagram of a whole run, summarised to `limits`.
    static func diagram(
        scenario: ScenarioFile, events: [TraceEvent], source: SourceLines,
        labels: [FinalState.LabelBinding], limits: DiagramLimits
    ) -> SequenceDiagram {
        var builder = SequenceBuilder(
            participants: participants(scenario: scenario, events: events),
            source: source, text: TraceDetailText(labels: labels), limits: limits
        )
        for event in events { builder.consume(event) }
        builder.finish()
        let steps = SequenceSummarizer(limits: limits).summarize(builder.steps)
        return SequenceDiagram(participants: builder.participants, steps: steps)
    }

    /// Declared devices, then devices only the trace names (first seen first), then `cloud`.
    static func participants(scenario: ScenarioFile, events: [TraceEvent]) -> [String] {
        var names = scenario.devices.map(\.name.value).filter { $0 != "cloud" }
        var seen = Set(names)
        for event in events where event.actor != "script" && event.actor != "cloud" {
            if seen.insert(event.actor).inserted { names.append(event.actor) }
        }
        return names + ["cloud"]
    }

    mutating func consume(_ event: TraceEvent) {
        if let open = group, !open.accepts(event) { closeGroup() }
        switch event.actor {
        case "script": script(event)
        case "cloud": cloud(event)
        default: device(event)
        }
    }

    mutating func finish() {
        closeGroup()
        flushRuleNote()
    }

    // MARK: Rows

    /// Adds a row to the open highlighted block, or to the diagram.
    mutating func append(_ step: SequenceStep) {
        flushRuleNote()
        if group != nil {
            group?.steps.append(step)
        } else {
            steps.append(step)
        }
    }

    mutating func note(_ kind: NoteKind, over: [String], time: Int64, _ line: String) {
        append(.note(single(kind, over: over, time: time, line)))
    }

    /// A note of one line without rules.
    func single(_ kind: NoteKind, over: [String], time: Int64, _ line: String) -> SequenceNote {
        SequenceNote(over: over, kind: kind, time: time, lines: [NoteLine(text: line)])
    }

    /// The span of every lifeline, for notes about the whole run.
    var everyone: [String] {
        guard let first = participants.first, let last = participants.last, first != last
        else { return Array(participants.prefix(1)) }
        return [first, last]
    }

    /// `line 16: phone: insert Note n1`, or a fallback when the source lacks the line.
    func statement(line: Int64?, fallback: String) -> String {
        guard let line else { return fallback }
        let written = source.statement(at: Int(clamping: line))
        return "line \(line): " + (written.isEmpty ? fallback : written)
    }

    // MARK: Highlighted blocks

    mutating func openGroup(_ kind: NoteKind, note: SequenceNote, targets: Set<String>) {
        closeGroup()
        flushRuleNote()
        group = OpenGroup(kind: kind, time: note.time, targets: targets, note: note, steps: [])
    }

    mutating func closeGroup() {
        guard group != nil else { return }
        flushRuleNote()
        guard let open = group else { return }
        group = nil
        let block = SequenceHighlight(kind: open.kind, steps: [.note(open.note)] + open.steps)
        steps.append(.highlight(block))
    }

    /// Widens the open trigger's note so it spans `participant` too.
    mutating func widenTrigger(to participant: String) {
        guard var open = group else { return }
        open.targets.insert(participant)
        let indices = (open.note.over + [participant]).compactMap {
            participants.firstIndex(of: $0)
        }
        if let low = indices.min(), let high = indices.max() {
            open.note.over = low == high
                ? [participants[low]] : [participants[low], participants[high]]
        }
        group = open
    }
}

/// Rule decisions of one participant at one moment, merged into one note as they come.
struct PendingRuleNote {
    var actor: String
    var time: Int64
    /// Distinct lines in first-seen order, with how often each came.
    var lines: [(line: NoteLine, count: Int)]
}

/// A trigger or fault block still taking rows: what happens at its moment to its targets.
struct OpenGroup {
    var kind: NoteKind
    var time: Int64
    var targets: Set<String>
    var note: SequenceNote
    var steps: [SequenceStep]

    /// Whether the event is part of this moment: same time, and either an action the
    /// trigger runs or something that happens to a target (a probe means the engine moved on).
    func accepts(_ event: TraceEvent) -> Bool {
        guard event.time.microseconds == time else { return false }
        if event.actor == "script" {
            return kind == .trigger && (event.kind == "action" || event.kind == "cloud.action")
        }
        return targets.contains(event.actor) && event.kind != "probe"
    }
}
