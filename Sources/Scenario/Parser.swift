/// The recursive-descent parser behind `ScenarioParser` (work in progress).
struct Parser {
    let file: String
    let source: String

    init(source: String, file: String) {
        self.source = source
        self.file = file
    }

    mutating func parseFile() -> ParseResult {
        ParseResult(scenario: ScenarioFile(file: file), diagnostics: [])
    }
}
