/// The kinds of token the lexer produces.
enum TokenKind: Hashable, Sendable {
    /// `[A-Za-z_][A-Za-z0-9_-]*`, possibly dotted (`download.page.saved`).
    case identifier
    /// `"..."`; the token's `value` holds the text with escapes resolved.
    case string
    /// `hex"00ff"`; `value` holds the hex digits between the quotes.
    case hexData
    /// `12`, `-3.5`, `250ms`, `10%`: digits, optional fraction, optional unit suffix.
    case number
    case colon
    case equals
    case leftBrace
    case rightBrace
    case leftParenthesis
    case rightParenthesis
    case leftBracket
    case rightBracket
    case questionMark
    case comma
    case ampersand
    /// `<`, `<=`, `>` or `>=` (a count's bound).
    case comparison
    /// `..` between the bounds of a range.
    case dotDot
    case newline
    case endOfFile
}

/// One token with its source text and where it starts.
struct Token: Hashable, Sendable {
    var kind: TokenKind
    /// The exact source text (for a string, with quotes and escapes as written).
    var text: String
    /// The decoded content of a string or hex literal; the source text otherwise.
    var value: String
    var location: SourceLocation

    /// Whether this is the identifier `word` (keywords are plain identifiers).
    func isKeyword(_ word: String) -> Bool {
        kind == .identifier && text == word
    }

    /// Whether the token ends a statement.
    var endsLine: Bool { kind == .newline || kind == .endOfFile }

    /// How the token is named in a diagnostic, e.g. `'device'` or `end of line`.
    var quoted: String {
        switch kind {
        case .newline: return "end of line"
        case .endOfFile: return "end of file"
        default: return "'\(text)'"
        }
    }
}
