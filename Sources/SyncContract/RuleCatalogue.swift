/// An engine's rule catalogue as data, in the order of its page (groups, then rules within
/// a group), which is the order every listing uses.
public struct RuleCatalogue: Sendable {
    /// The groups in catalogue order, with the title of their section.
    public let groupTitles: [(group: String, title: String)]
    /// Every rule, in catalogue order.
    public let rules: [Rule]
    /// Configuration rules the scenario validator enforces when a file is read; no run can
    /// make them fire, so `synclab rules --check` does not ask a scenario for them.
    public let enforcedAtInput: Set<String>
    /// The weaknesses, in catalogue order.
    public let weaknesses: [Rule]
    /// Per invariant a rule names, its explainers and its exemptions: derived once, since
    /// every explorer run asks them of every check.
    private let byInvariant: [(invariant: String, explainers: [String], exemptions: [String])]

    public init(
        groupTitles: [(group: String, title: String)], rules: [Rule],
        enforcedAtInput: Set<String> = []
    ) {
        for rule in rules {
            precondition(groupTitles.contains { $0.group == rule.group },
                         "rule \(rule.id) is in no listed group")
        }
        precondition(Set(rules.map(\.id)).count == rules.count, "a rule ID appears twice")
        self.groupTitles = groupTitles
        self.rules = rules
        self.enforcedAtInput = enforcedAtInput
        weaknesses = rules.filter(\.isWeakness)
        var invariants: [String] = []
        for rule in rules {
            for invariant in rule.explains + rule.exempts where !invariants.contains(invariant) {
                invariants.append(invariant)
            }
        }
        byInvariant = invariants.map { invariant in
            (invariant,
             rules.filter { $0.explains.contains(invariant) }.map(\.id),
             rules.filter { $0.exempts.contains(invariant) }.map(\.id))
        }
    }

    /// The group IDs in catalogue order.
    public var groups: [String] {
        groupTitles.map(\.group)
    }

    /// The title of a group's section, or nil for an unknown group.
    public func title(ofGroup group: String) -> String? {
        groupTitles.first { $0.group == group }?.title
    }

    /// The rule with this ID, or nil.
    public func rule(_ id: String) -> Rule? {
        rules.first { $0.id == id }
    }

    /// The rules of one group, in catalogue order.
    public func rules(inGroup group: String) -> [Rule] {
        rules.filter { $0.group == group }
    }

    /// The rule IDs in the catalogue's order (the order reports list the rules that fired in).
    public var ids: [String] { rules.map(\.id) }

    /// Each rule's text by ID, for reports.
    public var textsByID: [String: String] {
        Dictionary(rules.map { ($0.id, $0.text) }, uniquingKeysWith: { first, _ in first })
    }

    /// The weaknesses that can explain a violation of an invariant, in catalogue order.
    public func explainers(of invariant: String) -> [String] {
        byInvariant.first { $0.invariant == invariant }?.explainers ?? []
    }

    /// The rules that exempt a device from an invariant once they fired on it.
    public func exemptions(from invariant: String) -> [String] {
        byInvariant.first { $0.invariant == invariant }?.exemptions ?? []
    }
}
