import Kernel

/// One rule that fired in a run: how often, where, and what it says.
public struct RuleTally: Hashable, Sendable {
    public var id: String
    /// The catalogue's text; nil when the catalogue given to the report lacks the ID.
    public var text: String?
    /// Trace events that cited the rule.
    public var count: Int
    /// Per participant that cited it, in lifeline order.
    public var participants: [ParticipantCount]

    public init(id: String, text: String?, count: Int, participants: [ParticipantCount]) {
        self.id = id
        self.text = text
        self.count = count
        self.participants = participants
    }

    /// How often one participant cited a rule.
    public struct ParticipantCount: Hashable, Sendable {
        public var name: String
        public var count: Int

        public init(name: String, count: Int) {
            self.name = name
            self.count = count
        }
    }

    /// Every rule cited in the trace, with participants in `order` (names `order` lacks
    /// come after, by name). Rules come in `ruleOrder` (the catalogue's order), then any
    /// other in ID order.
    public static func tally(
        _ events: [TraceEvent], ruleTexts: [String: String], order: [String],
        ruleOrder: [String] = []
    ) -> [RuleTally] {
        var counts: [String: [String: Int]] = [:]
        for event in events {
            for rule in event.rules {
                counts[rule, default: [:]][event.actor, default: 0] += 1
            }
        }
        let position = Dictionary(
            order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let rank = Dictionary(
            ruleOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let ids = counts.keys.sorted { left, right in
            switch (rank[left], rank[right]) {
            case let (a?, b?): return a < b
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return RuleID.areInIncreasingOrder(left, right)
            }
        }
        return ids.map { id in
            let perActor = counts[id] ?? [:]
            let names = perActor.keys.sorted { left, right in
                let a = position[left] ?? order.count
                let b = position[right] ?? order.count
                return a != b ? a < b : left < right
            }
            let participants = names.map { ParticipantCount(name: $0, count: perActor[$0] ?? 0) }
            return RuleTally(
                id: id, text: ruleTexts[id], count: participants.reduce(0) { $0 + $1.count },
                participants: participants)
        }
    }

    /// `phone ×3, laptop ×1`.
    public var whereText: String {
        participants.map { "\($0.name) ×\($0.count)" }.joined(separator: ", ")
    }
}
