/// The recursive-descent parser behind `ScenarioParser`.
///
/// It reads one statement at a time. A statement that goes wrong reports one diagnostic and
/// the rest of its line is skipped, so every line gets its say in one pass. Every iteration
/// of the main loop consumes at least one token, so parsing terminates on any input.
struct Parser {
    let file: String
    /// Lexes on demand: the parser holds the current token and the one after it, never the
    /// whole file's tokens.
    private let lexer: Lexer
    private(set) var current: Token
    private var following: Token
    /// How many tokens have been consumed (it stops at the end of the file), so that a loop
    /// can tell whether an iteration consumed any.
    private(set) var position = 0
    var diagnostics: [Diagnostic] = []
    /// The positions `diagnostics` speak at, so that keeping one per position costs a
    /// lookup, not a scan (a line of 100,000 bad characters gives 100,000 diagnostics).
    private var reportedLocations: Set<SourceLocation> = []
    var scenario: ScenarioFile
    /// Entity blocks as written; their property types are resolved once all are known.
    var rawEntities: [RawEntity] = []
    /// Where the first timeline statement is; setup statements after it are errors.
    var timelineStart: SourceLocation?
    /// Set by a statement that stopped at the start of the next statement (an entity block
    /// missing its `}`), so the main loop does not skip that line as the rest of this one.
    var resumesAtCurrentToken = false

    init(source: String, file: String) {
        self.file = file
        lexer = Lexer(source: source)
        current = lexer.next()
        following = current.kind == .endOfFile ? current : lexer.next()
        scenario = ScenarioFile(file: file)
        reportLexerProblems()
    }

    /// Reports what the lexer found in the tokens read so far. Called whenever it reads one,
    /// before the parser can speak about that token, so the lexer's explanation of a spot
    /// still comes first, as when a whole file was lexed before parsing.
    private mutating func reportLexerProblems() {
        let problems: [(SourceLocation, DiagnosticMessage)] = lexer.takeProblems()
        for (location, message) in problems {
            report(message, at: location)
        }
    }

    mutating func parseFile() -> ParseResult {
        while current.kind != .endOfFile {
            if current.kind == .newline {
                advance()
                continue
            }
            let start = position
            parseStatement()
            if resumesAtCurrentToken {
                resumesAtCurrentToken = false
            } else if !current.endsLine {
                skipLine()
            }
            if position == start { advance() }
        }
        if scenario.header.title == nil {
            report(.missingTitle, at: .start)
        }
        resolveEntities()
        let ordered = diagnostics.enumerated().sorted {
            ($0.element.location, $0.offset) < ($1.element.location, $1.offset)
        }
        return ParseResult(scenario: scenario, diagnostics: ordered.map(\.element))
    }

    // MARK: - Tokens

    /// The token after the current one (the end of file at the end).
    func peek() -> Token { following }

    /// Consumes the current token (never past the end of the file) and returns it.
    @discardableResult
    mutating func advance() -> Token {
        let token = current
        guard current.kind != .endOfFile else { return token }
        position += 1
        current = following
        if following.kind != .endOfFile {
            following = lexer.next()
            reportLexerProblems()
        }
        return token
    }

    /// Skips to the end of the line, leaving the newline for the caller.
    mutating func skipLine() {
        while !current.endsLine { advance() }
    }

    /// Consumes a token of that kind, or reports what was expected and returns nil.
    mutating func expect(_ kind: TokenKind, _ what: String) -> Token? {
        guard current.kind == kind else {
            report(.expected(what, found: current), at: current.location)
            return nil
        }
        return advance()
    }

    /// Consumes the keyword, or reports it as expected and returns false.
    mutating func expectKeyword(_ word: String) -> Bool {
        guard current.isKeyword(word) else {
            report(.expected("'\(word)'", found: current), at: current.location)
            return false
        }
        advance()
        return true
    }

    /// Consumes a plain (undotted) identifier naming `what`, e.g. "a device name".
    mutating func name(_ what: String) -> Located<String>? {
        // An identifier is ASCII: its bytes are its characters.
        guard current.kind == .identifier, !current.text.utf8.contains(0x2E) else {
            report(.expected(what, found: current), at: current.location)
            return nil
        }
        let token = advance()
        return Located(token.text, at: token.location)
    }

    /// Whether the statement ends here; reports and skips what follows otherwise.
    @discardableResult
    mutating func expectEndOfStatement() -> Bool {
        if current.endsLine { return true }
        report(.unexpectedToken(current), at: current.location)
        skipLine()
        return false
    }

    /// Records a diagnostic unless one is already at that position: the first explanation of
    /// a spot (often the lexer's) is the useful one, and a second would only repeat it.
    mutating func report(
        _ message: DiagnosticMessage, at location: SourceLocation, notes: [DiagnosticNote] = []
    ) {
        guard reportedLocations.insert(location).inserted else { return }
        diagnostics.append(message.diagnostic(file: file, at: location, notes: notes))
    }

    // MARK: - Statements

    /// Dispatches on the first token of a line through the statement table.
    private mutating func parseStatement() {
        let first = current
        guard first.kind == .identifier else {
            report(.expected("a statement", found: first), at: first.location)
            return
        }
        if peek().kind == .colon {
            markTimeline(at: first.location)
            parseActionStatement()
            return
        }
        guard let rule = StatementTable.rule(for: first.text) else {
            reportUnknownStatement(first)
            return
        }
        if rule.isSetup {
            checkSetupOrder(first)
        } else {
            markTimeline(at: first.location)
        }
        advance()
        if rule.parse(&self, first) { expectEndOfStatement() }
    }

    private mutating func reportUnknownStatement(_ token: Token) {
        if scenario.devices.contains(where: { $0.name.value == token.text }) {
            let end = SourceLocation(
                line: token.location.line,
                column: token.location.column + token.text.unicodeScalars.count)
            report(.missingColonAfterDevice(token.text), at: end)
            return
        }
        let suggestions = Suggestions.closest(to: token.text, among: StatementTable.keywords)
        report(.unknownStatement(token.text, suggestions: suggestions), at: token.location)
    }

    private mutating func markTimeline(at location: SourceLocation) {
        if timelineStart == nil { timelineStart = location }
    }

    private mutating func checkSetupOrder(_ keyword: Token) {
        guard let start = timelineStart else { return }
        let note = DiagnosticNote(location: start, message: "the timeline starts here")
        let hint = keyword.isKeyword("cloud") && peek().kind == .identifier
            ? ["cloud: \(peek().text)"] : []
        report(.setupAfterTimeline(keyword.text, suggestions: hint), at: keyword.location,
            notes: [note])
    }

    /// `DEVICE: ACTION [&]` or `cloud: ACTION`, on the timeline.
    private mutating func parseActionStatement() {
        let location = current.location
        if current.isKeyword("cloud") {
            guard let statement = parseCloudActionStatement() else { return }
            appendTimeline(.cloudAction(statement), at: location)
        } else {
            guard let statement = parseDeviceActionStatement() else { return }
            appendTimeline(.deviceAction(statement), at: location)
        }
        expectEndOfStatement()
    }
}
