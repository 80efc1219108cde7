/// What parsing a file yields: always a tree (partial when there are errors) and every
/// diagnostic found in one pass.
public struct ParseResult: Hashable, Sendable {
    public var scenario: ScenarioFile
    /// In the order found, which is file order within each pass.
    public var diagnostics: [Diagnostic]

    public init(scenario: ScenarioFile, diagnostics: [Diagnostic]) {
        self.scenario = scenario
        self.diagnostics = diagnostics
    }

    public var hasErrors: Bool { diagnostics.containsErrors }
}

/// Turns scenario text into a syntax tree: lexing, parsing and resolving entity types.
///
/// Name and value checks against the schema and declarations are `ScenarioValidator`'s;
/// `ScenarioChecker.check` runs both.
public enum ScenarioParser {
    public static func parse(source: String, file: String) -> ParseResult {
        var parser = Parser(source: source, file: file)
        return parser.parseFile()
    }
}
