/// A table of an engine's decisions kept as data besides its catalogue (the `history`
/// engine's recovery policy: error → action, back-off), printed by `synclab rules` after the
/// rules.
public struct PolicyTable: Sendable {
    /// The table's title (`Recovery policy`).
    public let title: String
    /// Its lines, as printed, header first.
    public let lines: [String]

    public init(title: String, lines: [String]) {
        self.title = title
        self.lines = lines
    }
}
