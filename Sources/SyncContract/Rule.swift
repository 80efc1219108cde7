/// One rule of an engine's catalogue: a sentence of its seed that decides what a device
/// does, under a permanent ID.
///
/// The engine cites `id` in its trace each time the rule decides something; `synclab rules`
/// lists the rules with the scenarios that make them fire, and `--check` finds rules no
/// scenario exercises yet.
public struct Rule: Hashable, Sendable {
    /// The permanent ID, `GROUP-N` (`SYNC-4`); never renumbered.
    public let id: String
    /// The ID's prefix (`SYNC`), which names the section of the catalogue's page.
    public let group: String
    /// The rule as the catalogue's page words it, without the markdown bold of its ID.
    public let text: String
    /// Where the seed leaves a behaviour open, the project's documented choice (the text of
    /// the rule's `Choice:` lines, one per line); nil when it decides none.
    public let choice: String?
    /// For a weakness (a race or data-loss path the engine does not resolve, like sds's
    /// LIM-*): the invariants whose violation it explains (`convergence`, `lost-change`,
    /// `duplicate-identity`, `resurrection`). Empty for an ordinary rule.
    public let explains: [String]
    /// The invariants a device is exempt from once this rule fired on it: the rule makes a
    /// saved change vanish (`lost-change`) or a deleted record return (`resurrection`) by
    /// design, so the checkers do not count it.
    public let exempts: [String]
    /// For a weakness a scenario can step around: how, in a few words a runtime error can
    /// carry (`'settle' before the first save`); nil when the rule names none.
    public let workaround: String?

    public init(
        id: String, group: String, text: String, choice: String? = nil, explains: [String] = [],
        exempts: [String] = [], workaround: String? = nil
    ) {
        precondition(id.hasPrefix(group + "-"), "rule \(id) is not in group \(group)")
        precondition(!text.isEmpty, "rule \(id) has no text")
        self.id = id
        self.group = group
        self.text = text
        self.choice = choice
        self.explains = explains
        self.exempts = exempts
        self.workaround = workaround
    }

    /// A rule whose group is its ID's prefix, for a catalogue's literal.
    public init(
        _ id: String, _ text: String, choice: String? = nil, explains: [String] = [],
        exempts: [String] = []
    ) {
        let group = id.prefix { $0 != "-" }
        self.init(
            id: id, group: String(group), text: text, choice: choice, explains: explains,
            exempts: exempts)
    }

    /// Whether the rule names a weakness rather than a behaviour.
    public var isWeakness: Bool { !explains.isEmpty }
}
