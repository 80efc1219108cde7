import Harness
/// The statements of a scenario's source, by line number, as a reader wrote them.
///
/// The trace names the line of each script action; a report quotes that line (without its
/// comment) so a reader can find it in the file.
public struct SourceLines: Sendable {
    private let lines: [Substring]

    public init(_ source: String) {
        lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The statement on a 1-based line without its `#` comment and surrounding blanks; ""
    /// for a line the file does not have.
    public func statement(at line: Int) -> String {
        guard line >= 1, line <= lines.count else { return "" }
        return Self.withoutComment(lines[line - 1])
    }

    /// Cuts at the first `#` outside a string literal, honouring `\"` escapes.
    static func withoutComment(_ line: Substring) -> String {
        ScenarioRunner.statementText(line)
    }
}
