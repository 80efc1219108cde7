/// A run drawn as a sequence diagram: who talked to whom, when, and which rules decided.
///
/// Both renderings (Mermaid for Markdown, SVG for HTML) read this one model, so the two
/// formats of a report always tell the same story.
public struct SequenceDiagram: Hashable, Sendable {
    /// Lifelines from left to right: the devices in declaration order, then `cloud`.
    public var participants: [String]
    public var steps: [SequenceStep]

    public init(participants: [String], steps: [SequenceStep]) {
        self.participants = participants
        self.steps = steps
    }

    /// Arrows in the diagram, including those inside highlighted blocks.
    public var messageCount: Int { SequenceStep.messageCount(steps) }

    /// Every rule ID a note names, sorted like the rule list, each once.
    public var mentionedRules: [String] {
        var found: Set<String> = []
        SequenceStep.collectRules(steps, into: &found)
        return found.sorted(by: RuleID.areInIncreasingOrder)
    }
}

/// One row of a sequence diagram.
public indirect enum SequenceStep: Hashable, Sendable {
    case message(SequenceMessage)
    case note(SequenceNote)
    /// A trigger's or a fault's moment, drawn on a tinted background.
    case highlight(SequenceHighlight)
    /// Something left out to keep the diagram readable: repetitions or the rest of a run.
    case gap(SequenceGap)

    static func messageCount(_ steps: [SequenceStep]) -> Int {
        steps.reduce(0) { total, step in
            switch step {
            case .message: return total + 1
            case .highlight(let block): return total + messageCount(block.steps)
            case .note, .gap: return total
            }
        }
    }

    /// Rows drawn, counting a highlighted block's rows and not the block itself.
    static func rowCount(_ steps: [SequenceStep]) -> Int {
        steps.reduce(0) { total, step in
            if case .highlight(let block) = step { return total + rowCount(block.steps) }
            return total + 1
        }
    }

    static func collectRules(_ steps: [SequenceStep], into found: inout Set<String>) {
        for step in steps {
            switch step {
            case .note(let note): for line in note.lines { found.formUnion(line.rules) }
            case .highlight(let block): collectRules(block.steps, into: &found)
            case .message, .gap: break
            }
        }
    }

    /// The simulated time the row stands at.
    var time: Int64 {
        switch self {
        case .message(let message): return message.time
        case .note(let note): return note.time
        case .highlight(let block): return block.steps.first?.time ?? 0
        case .gap(let gap): return gap.time
        }
    }
}

/// How an arrow is drawn, after what crossed the network.
public enum MessageStyle: String, Hashable, Sendable {
    /// A device's request reaching the cloud (solid, filled head).
    case request
    /// The cloud's answer reaching the device (dashed, filled head).
    case response
    /// A silent push reaching a device (solid, open head).
    case push
    /// An answer or a push that never reached its device (dashed, cross).
    case lost
}

/// An arrow, drawn when it arrives, labelled with when it left and when it arrived.
public struct SequenceMessage: Hashable, Sendable {
    public var from: String
    public var to: String
    public var style: MessageStyle
    /// When it left, if known.
    public var sentTime: Int64?
    /// When it arrived (or was lost): where the arrow stands in the diagram.
    public var time: Int64
    /// What it carried, e.g. `r5 modifyRecords saves=[n1]`.
    public var text: String

    public init(
        from: String, to: String, style: MessageStyle, sentTime: Int64?, time: Int64,
        text: String
    ) {
        self.from = from
        self.to = to
        self.style = style
        self.sentTime = sentTime
        self.time = time
        self.text = text
    }

    /// `0.8s→0.9s r5 modifyRecords saves=[n1]`: the times, then what it carried.
    public var label: String {
        let arrived = ReportTime.text(microseconds: time)
        guard let sentTime, sentTime != time else { return "\(arrived) \(text)" }
        return "\(ReportTime.text(microseconds: sentTime))→\(arrived) \(text)"
    }
}

/// What a note is about; it sets the marker and the tint.
public enum NoteKind: String, Hashable, Sendable {
    /// Decisions an engine (or the cloud) made under catalogued rules.
    case rule
    /// A script action.
    case action
    /// A trigger that fired at a probe point.
    case trigger
    /// A scripted fault: a cloud action, or a device killed, cut off or losing its store.
    case fault
    /// A failed expectation or a runtime failure.
    case failure
    /// Anything else worth seeing: launches, lost connectivity, failed requests.
    case info

    /// The symbol that starts the note, so the kind reads without colour. A failure is the
    /// word `FAIL`: it must read without an emoji font too.
    public var marker: String {
        switch self {
        case .rule, .info: return ""
        case .action: return "▶"
        case .trigger: return "⚡"
        case .fault: return "⚠"
        case .failure: return "FAIL"
        }
    }
}

/// A note over one participant or spanning from `over.first` to `over.last`.
public struct SequenceNote: Hashable, Sendable {
    /// One participant, or the first and last of a span.
    public var over: [String]
    public var kind: NoteKind
    public var time: Int64
    public var lines: [NoteLine]

    public init(over: [String], kind: NoteKind, time: Int64, lines: [NoteLine]) {
        self.over = over
        self.kind = kind
        self.time = time
        self.lines = lines
    }

    /// Each line as prefix (marker and time, first line only), rule IDs and text, so a
    /// renderer can link the rules.
    public var parts: [(prefix: String, rules: [String], text: String)] {
        lines.enumerated().map { index, line in
            var prefix = ""
            if index == 0 {
                let time = ReportTime.text(microseconds: time)
                prefix = kind.marker.isEmpty ? time : "\(kind.marker) \(time)"
            }
            return (prefix, line.rules, line.text)
        }
    }

    /// Each line as plain text: prefix, rules and text separated by single spaces.
    public var plainLines: [String] {
        parts.map { part in
            ([part.prefix] + part.rules + [part.text]).filter { !$0.isEmpty }
                .joined(separator: " ")
        }
    }
}

/// One line of a note: the rules it cites and what happened.
public struct NoteLine: Hashable, Sendable {
    public var rules: [String]
    public var text: String

    public init(rules: [String] = [], text: String) {
        self.rules = rules
        self.text = text
    }
}

/// Rows drawn together on a tinted background: a trigger or a fault and what it did at once.
public struct SequenceHighlight: Hashable, Sendable {
    public var kind: NoteKind
    public var steps: [SequenceStep]

    public init(kind: NoteKind, steps: [SequenceStep]) {
        self.kind = kind
        self.steps = steps
    }
}

/// A note across every lifeline saying what was left out.
public struct SequenceGap: Hashable, Sendable {
    public var time: Int64
    public var text: String

    public init(time: Int64, text: String) {
        self.time = time
        self.text = text
    }
}
