/// Splits scenario text into tokens, reporting bad characters, strings and escapes.
///
/// It works on Unicode scalars so columns count scalars. Every loop iteration consumes at
/// least one scalar, so lexing terminates on any input; problems become diagnostics and the
/// offending characters are skipped. A class, not a struct, so that debug builds do not copy
/// its arrays on every look at the current character.
final class Lexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var column = 1
    private(set) var tokens: [Token] = []
    private(set) var problems: [(SourceLocation, DiagnosticMessage)] = []

    init(source: String) {
        var scalars = Array(source.unicodeScalars)
        // A byte order mark says nothing to a reader; drop it rather than report it.
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        self.scalars = scalars
    }

    /// Lexes the whole input; the last token is always `endOfFile`.
    static func tokenize(_ source: String) -> Lexer {
        let lexer = Lexer(source: source)
        lexer.run()
        return lexer
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func lookahead(_ offset: Int) -> Unicode.Scalar? {
        let position = index + offset
        return position < scalars.count ? scalars[position] : nil
    }

    private var location: SourceLocation { SourceLocation(line: line, column: column) }

    private func advance() {
        guard let scalar = current else { return }
        index += 1
        if scalar == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }

    private func run() {
        while let scalar = current {
            let start = location
            let startIndex = index
            if scalar == "\n" {
                advance()
                add(.newline, from: startIndex, at: start)
            } else if scalar == " " || scalar == "\t" || scalar == "\r" {
                advance()
            } else if scalar == "#" {
                while let next = current, next != "\n" { advance() }
            } else if Self.isIdentifierStart(scalar) {
                lexIdentifier(from: startIndex, at: start)
            } else if Self.isDigit(scalar) || (scalar == "-" && startsNumber(lookahead(1))) {
                lexNumber(from: startIndex, at: start)
            } else if scalar == "\"" {
                let value = lexStringBody(at: start)
                add(.string, from: startIndex, at: start, value: value)
            } else if let kind = Self.punctuation(scalar, next: lookahead(1)) {
                advance()
                if kind == .dotDot { advance() }
                add(kind, from: startIndex, at: start)
            } else {
                advance()
                problems.append((start, .unexpectedCharacter(Self.describe(scalar))))
            }
        }
        tokens.append(Token(kind: .endOfFile, text: "", value: "", location: location))
    }

    private func startsNumber(_ scalar: Unicode.Scalar?) -> Bool {
        scalar.map(Self.isDigit) ?? false
    }

    private func add(
        _ kind: TokenKind, from startIndex: Int, at start: SourceLocation, value: String? = nil
    ) {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[startIndex..<index])
        tokens.append(Token(kind: kind, text: text, value: value ?? text, location: start))
    }

    /// An identifier, joined with `.name` parts written without spaces (probe points).
    private func lexIdentifier(from startIndex: Int, at start: SourceLocation) {
        while true {
            while let next = current, Self.isIdentifierContinuation(next) { advance() }
            guard current == ".", let after = lookahead(1), Self.isIdentifierStart(after) else {
                break
            }
            advance()
        }
        if index - startIndex == 3, current == "\"", scalars[startIndex] == "h",
            scalars[startIndex + 1] == "e", scalars[startIndex + 2] == "x"
        {
            let value = lexStringBody(at: location)
            add(.hexData, from: startIndex, at: start, value: value)
            return
        }
        add(.identifier, from: startIndex, at: start)
    }

    /// `-`? digits (`.` digits)? followed by a unit suffix of letters or `%`, if any.
    private func lexNumber(from startIndex: Int, at start: SourceLocation) {
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
        add(.number, from: startIndex, at: start)
    }

    /// Reads a string from its opening quote to its closing quote or the end of the line.
    private func lexStringBody(at start: SourceLocation) -> String {
        advance()
        var value = ""
        while true {
            guard let scalar = current, scalar != "\n" else {
                problems.append((start, .unterminatedString))
                return value
            }
            if scalar == "\"" {
                advance()
                return value
            }
            if scalar == "\\" {
                let escapeLocation = location
                advance()
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
            value.unicodeScalars.append(scalar)
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
