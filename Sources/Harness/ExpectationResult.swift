/// The outcome of one `expect` line.
public struct ExpectationResult: Hashable, Sendable {
    public var line: Int
    /// What the line wants, as written.
    public var wanted: String
    /// What was found instead (empty when it held).
    public var found: String
    public var passed: Bool

    public init(line: Int, wanted: String, found: String, passed: Bool) {
        self.line = line
        self.wanted = wanted
        self.found = found
        self.passed = passed
    }
}
