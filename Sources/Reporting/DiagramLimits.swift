/// How far a sequence diagram may grow before it is summarised.
///
/// A diagram is for reading: past a few hundred rows nobody follows it, and a renderer
/// (Mermaid in a browser) slows down. The full story is always in the trace.
public struct DiagramLimits: Hashable, Sendable {
    /// Arrows at most; the rest of the run becomes one note.
    public var maxMessages: Int
    /// Rows at most (arrows and notes), for runs that are mostly notes.
    public var maxRows: Int
    /// A block of rows repeated at least this many times in a row is collapsed to its first
    /// and last repetition.
    public var minimumRepeats: Int
    /// The longest block of rows (a retry's request, answer and notes) looked for.
    public var maxPeriod: Int
    /// Lines in one note at most; the rest is counted in a last line.
    public var maxNoteLines: Int
    /// Character cells of one label or note line at most (Mermaid; SVG fits to its columns).
    public var maxLabelCells: Int

    public init(
        maxMessages: Int = 150,
        maxRows: Int = 300,
        minimumRepeats: Int = 3,
        maxPeriod: Int = 16,
        maxNoteLines: Int = 6,
        maxLabelCells: Int = 100
    ) {
        precondition(maxMessages > 0 && maxRows > 0, "a diagram needs room for a row")
        precondition(minimumRepeats >= 3, "collapsing keeps the first and last repetition")
        precondition(maxPeriod >= 1 && maxNoteLines >= 1 && maxLabelCells >= 8)
        self.maxMessages = maxMessages
        self.maxRows = maxRows
        self.minimumRepeats = minimumRepeats
        self.maxPeriod = maxPeriod
        self.maxNoteLines = maxNoteLines
        self.maxLabelCells = maxLabelCells
    }

    public static let standard = DiagramLimits()
}
