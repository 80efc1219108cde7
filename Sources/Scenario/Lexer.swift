/// Splits scenario text into tokens, reporting bad characters, strings and escapes.
///
/// It works on Unicode scalars so columns count scalars. Every call of `next()` consumes at
/// least one scalar until the end of the text, so lexing terminates on any input; problems
/// become diagnostics and the offending characters are skipped. It lexes on demand: the
/// parser asks for one token at a time, so a file's tokens are never all held at once (a
/// generated script of a million statements would hold tens of millions), and it reads the
/// text in place through its scalar view rather than a copy as an array of scalars. A class,
/// not a struct, so that the parser's copies of its state share one reader.
final class Lexer {
    private let scalars: String.UnicodeScalarView
    /// The same text's bytes: an ASCII scalar is stepped over and read as one byte.
    private let bytes: String.UTF8View
    private var index: String.UnicodeScalarView.Index
    /// The scalar at `index`, nil at the end of the text.
    private var current: Unicode.Scalar?
    private var line = 1
    private var column = 1
    /// Problems found since the caller last took them (`takeProblems`).
    private var problems: [(SourceLocation, DiagnosticMessage)] = []

    init(source: String) {
        scalars = source.unicodeScalars
        bytes = source.utf8
        index = scalars.startIndex
        current = index < scalars.endIndex ? scalars[index] : nil
        // A byte order mark says nothing to a reader; drop it rather than report it.
        if current == "\u{FEFF}" {
            index = scalars.index(after: index)
            current = index < scalars.endIndex ? scalars[index] : nil
        }
    }

    /// Lexes the whole input; the last token is always `endOfFile` (the mutation tests'
    /// view of a file's tokens).
    static func tokenize(
        _ source: String
    ) -> (tokens: [Token], problems: [(SourceLocation, DiagnosticMessage)]) {
        let lexer = Lexer(source: source)
        var tokens: [Token] = []
        var problems: [(SourceLocation, DiagnosticMessage)] = []
        repeat {
            tokens.append(lexer.next())
            problems += lexer.takeProblems()
        } while tokens.last?.kind != .endOfFile
        return (tokens, problems)
    }

    /// The problems found while lexing the tokens returned so far, each once.
    func takeProblems() -> [(SourceLocation, DiagnosticMessage)] {
        guard !problems.isEmpty else { return [] }
        defer { problems = [] }
        return problems
    }

    private func lookahead(_ offset: Int) -> Unicode.Scalar? {
        var position = index
        for _ in 0..<offset {
            guard position < scalars.endIndex else { return nil }
            position = scalars.index(after: position)
        }
        return position < scalars.endIndex ? scalars[position] : nil
    }

    private var location: SourceLocation { SourceLocation(line: line, column: column) }

    private func advance() {
        guard let scalar = current else { return }
        // Through the bytes where a scalar is one: the scalar view checked the index each time.
        index = scalar.isASCII ? bytes.index(after: index) : scalars.index(after: index)
        if index < scalars.endIndex {
            let byte = bytes[index]
            current = byte < 0x80 ? Unicode.Scalar(byte) : scalars[index]
        } else {
            current = nil
        }
        if scalar == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }

    /// The next token; once the text is used up, `endOfFile` (again on every later call).
    func next() -> Token {
        while let scalar = current {
            let start = location
            let startIndex = index
            if scalar == "\n" {
                advance()
                return token(.newline, from: startIndex, at: start)
            } else if scalar == " " || scalar == "\t" || scalar == "\r" {
                advance()
            } else if scalar == "#" {
                while let next = current, next != "\n" { advance() }
            } else if Self.isIdentifierStart(scalar) {
                return lexIdentifier(from: startIndex, at: start)
            } else if Self.isDigit(scalar) || (scalar == "-" && startsNumber(lookahead(1))) {
                return lexNumber(from: startIndex, at: start)
            } else if scalar == "\"" {
                let value = lexStringBody(at: start)
                return token(.string, from: startIndex, at: start, value: value)
            } else if let kind = Self.punctuation(scalar, next: lookahead(1)) {
                advance()
                if kind == .dotDot || (kind == .comparison && current == "=") { advance() }
                return token(kind, from: startIndex, at: start)
            } else {
                advance()
                problems.append((start, .unexpectedCharacter(Self.describe(scalar))))
            }
        }
        return Token(kind: .endOfFile, text: "", value: "", location: location)
    }

    private func startsNumber(_ scalar: Unicode.Scalar?) -> Bool {
        scalar.map(Self.isDigit) ?? false
    }

    private func token(
        _ kind: TokenKind, from startIndex: String.UnicodeScalarView.Index,
        at start: SourceLocation, value: String? = nil
    ) -> Token {
        let text = String(scalars[startIndex..<index])
        return Token(kind: kind, text: text, value: value ?? text, location: start)
    }

    /// An identifier, joined with `.name` parts written without spaces (probe points).
    private func lexIdentifier(
        from startIndex: String.UnicodeScalarView.Index, at start: SourceLocation
    ) -> Token {
        var length = 0
        while true {
            while let next = current, Self.isIdentifierContinuation(next) { advance(); length += 1 }
            guard current == ".", let after = lookahead(1), Self.isIdentifierStart(after) else {
                break
            }
            advance()
            length += 1
        }
        if length == 3, current == "\"", scalars[startIndex] == "h",
            scalars[scalars.index(startIndex, offsetBy: 1)] == "e",
            scalars[scalars.index(startIndex, offsetBy: 2)] == "x"
        {
            let value = lexStringBody(at: location)
            return token(.hexData, from: startIndex, at: start, value: value)
        }
        return token(.identifier, from: startIndex, at: start)
    }

    /// `-`? digits (`.` digits)? followed by a unit suffix of letters or `%`, if any.
    private func lexNumber(
        from startIndex: String.UnicodeScalarView.Index, at start: SourceLocation
    ) -> Token {
        if current == "-" { advance() }
        while let next = current, Self.isDigit(next) { advance() }
        if current == ".", let after = lookahead(1), Self.isDigit(after) {
            advance()
            while let next = current, Self.isDigit(next) { advance() }
        }
        if current == "%" {
            advance()
        } else {
            while let next = current, Self.isLetter(next) { advance() }
        }
        return token(.number, from: startIndex, at: start)
    }

    /// Reads a string from its opening quote to its closing quote or the end of the line.
    private func lexStringBody(at start: SourceLocation) -> String {
        advance()
        var value = ""
        // Scalars without an escape are taken as one slice of the text, not one by one.
        var runStart = index
        func takeRun() {
            guard runStart < index else { return }
            let run = String(scalars[runStart..<index])
            if value.isEmpty { value = run } else { value += run }
        }
        while true {
            guard let scalar = current, scalar != "\n" else {
                takeRun()
                problems.append((start, .unterminatedString))
                return value
            }
            if scalar == "\"" {
                takeRun()
                advance()
                return value
            }
            if scalar == "\\" {
                takeRun()
                let escapeLocation = location
                advance()
                defer { runStart = index }
                guard let escaped = current, escaped != "\n" else { continue }
                advance()
                switch escaped {
                case "\"": value.unicodeScalars.append("\"")
                case "\\": value.unicodeScalars.append("\\")
                case "n": value.unicodeScalars.append("\n")
                case "t": value.unicodeScalars.append("\t")
                default:
                    problems.append((escapeLocation, .unknownEscape(Self.describe(escaped))))
                }
                continue
            }
            advance()
        }
    }

    private static func punctuation(_ scalar: Unicode.Scalar, next: Unicode.Scalar?) -> TokenKind? {
        switch scalar {
        case ":": return .colon
        case "=": return .equals
        case "{": return .leftBrace
        case "}": return .rightBrace
        case "(": return .leftParenthesis
        case ")": return .rightParenthesis
        case "[": return .leftBracket
        case "]": return .rightBracket
        case "?": return .questionMark
        case ",": return .comma
        case "&": return .ampersand
        case "<", ">": return .comparison
        case ".": return next == "." ? .dotDot : nil
        default: return nil
        }
    }

    // Plain comparisons of code points: ranges of scalars are slow in debug builds, and
    // the mutation tests lex thousands of files.

    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value | 0x20
        return value >= 0x61 && value <= 0x7A
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x30 && scalar.value <= 0x39
    }

    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) || scalar.value == 0x5F
    }

    static func isIdentifierContinuation(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || isDigit(scalar) || scalar.value == 0x2D
    }

    /// A character as a diagnostic shows it: itself when visible, else `U+XXXX`.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let properties = scalar.properties
        let visible = scalar.value > 0x20 && scalar.value != 0x7F && properties.isGraphemeBase
            && !properties.isWhitespace
        if visible { return String(Character(scalar)) }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
