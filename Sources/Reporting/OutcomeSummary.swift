import Harness
import Kernel

/// What happened in a run, in the few facts a reader wants before any diagram: what the
/// script did, what the cloud ended with, which rules decided, which weakness fired.
public struct OutcomeSummary: Hashable, Sendable {
    /// The script's actions, faults and triggers as written, in run order, each once.
    public var actions: [String]
    /// How many more actions there were than `actions` shows.
    public var moreActions: Int
    /// Per account: what its zone held at the end.
    public var clouds: [CloudEnd]
    /// The rules that fired and are no weakness, in the rule list's order.
    public var rules: [RuleTally]
    /// The weaknesses (the catalogue's rules that explain a lost change, a duplicate, …)
    /// that fired.
    public var weaknesses: [RuleTally]
    /// The expectations that failed, as `line N: wanted — found: …`.
    public var failed: [String]

    public struct CloudEnd: Hashable, Sendable {
        public var account: String
        public var recordCount: Int
        /// The first few records as `n1 Note title="Groceries"`.
        public var samples: [String]
    }

    static let shownActions = 4
    static let shownRecords = 3

    init(
        events: [TraceEvent], source: SourceLines, finalState: [StateTable]?,
        rules tally: [RuleTally], weaknessIDs: Set<String>, expectations: [ExpectationResult]
    ) {
        var seen: Set<Int64> = []
        var all: [String] = []
        for event in events where event.actor == "script" && Self.isAction(event.kind) {
            guard let line = TraceDetailText.integer("line", in: event.details),
                seen.insert(line).inserted
            else { continue }
            let text = source.statement(at: Int(line))
            if !text.isEmpty { all.append(text) }
        }
        actions = Array(all.prefix(Self.shownActions))
        moreActions = max(0, all.count - Self.shownActions)
        clouds = (finalState ?? []).filter { $0.title.hasPrefix("cloud: ") }.map(Self.cloudEnd)
        rules = tally.filter { !weaknessIDs.contains($0.id) }
        weaknesses = tally.filter { weaknessIDs.contains($0.id) }
        failed = expectations.filter { !$0.passed }.map { result in
            "line \(result.line): \(result.wanted)"
                + (result.found.isEmpty ? "" : " — found: \(result.found)")
        }
    }

    static func isAction(_ kind: String) -> Bool {
        kind == "action" || kind == "cloud.action" || kind == "trigger.fired"
    }

    private static func cloudEnd(_ table: StateTable) -> CloudEnd {
        var samples: [String] = []
        var count = 0
        for entity in table.entities {
            for row in entity.rows {
                count += 1
                guard samples.count < shownRecords else { continue }
                let name = row[0].isEmpty ? row[1] : row[0]
                let values = zip(entity.columns, row.dropFirst(2)).filter { !$1.isEmpty }
                    .map { "\($0)=\($1)" }
                samples.append(([name, entity.entity] + values).joined(separator: " "))
            }
        }
        return CloudEnd(account: String(table.title.dropFirst("cloud: ".count)),
                        recordCount: count, samples: samples)
    }
}
