/// The tokens of a predicate format string (Apple's *Predicate Format String Syntax*), each
/// with its position in characters from 1, for `PredicateFormatParser`.
struct PredicateToken: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        /// An identifier or a keyword, as written.
        case word(String)
        /// A quoted string, its escapes resolved.
        case string(String)
        /// A number as written (`12`, `-3.5`, `1e3`).
        case number(String)
        /// A format specifier without its `%` (`@`, `K`, `d`, `lld`, `f`).
        case argument(String)
        /// Operators and punctuation: `==`, `<=`, `&&`, `(`, `{`, `,`, `[`, `.`, `$` …
        case symbol(String)
        case end
    }

    let kind: Kind
    let position: Int

    /// A keyword's upper-case spelling (keywords are case-insensitive); nil for other tokens.
    var keyword: String? {
        if case .word(let word) = kind { return word.uppercased() }
        return nil
    }
}

enum PredicateFormatLexer {
    /// The two-character operators, tried before the one-character symbols.
    static let pairs: Set<String> = ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||"]
    /// The specifiers an argument may take: objects, keys, integers and floating point.
    static let specifiers = [
        "@", "K", "d", "i", "u", "ld", "li", "lu", "lld", "lli", "llu", "f", "lf",
    ]

    static func tokens(_ format: String) throws(PredicateFormatError) -> [PredicateToken] {
        let characters = Array(format)
        var tokens: [PredicateToken] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let position = index + 1
            if character.isWhitespace {
                index += 1
            } else if character == "'" || character == "\"" {
                let (text, next) = try quoted(characters, from: index)
                tokens.append(PredicateToken(kind: .string(text), position: position))
                index = next
            } else if character == "%" {
                let (specifier, next) = try argument(characters, from: index)
                tokens.append(PredicateToken(kind: .argument(specifier), position: position))
                index = next
            } else if isDigit(character)
                || (character == "-" && startsNumber(characters, index + 1)) {
                let next = numberEnd(characters, from: index + 1)
                let text = String(characters[index..<next])
                tokens.append(PredicateToken(kind: .number(text), position: position))
                index = next
            } else if character.isLetter || character == "_" || character == "#" {
                var next = index + 1
                while next < characters.count, isWordPart(characters[next]) { next += 1 }
                let text = String(characters[index..<next])
                tokens.append(PredicateToken(kind: .word(text), position: position))
                index = next
            } else {
                let pair = index + 1 < characters.count
                    ? String(characters[index...index + 1]) : ""
                let symbol = pairs.contains(pair) ? pair : String(character)
                tokens.append(PredicateToken(kind: .symbol(symbol), position: position))
                index += symbol.count
            }
        }
        tokens.append(PredicateToken(kind: .end, position: characters.count + 1))
        return tokens
    }

    /// A quoted string from its opening quote; backslash escapes the next character.
    private static func quoted(
        _ characters: [Character], from start: Int
    ) throws(PredicateFormatError) -> (String, Int) {
        let quote = characters[start]
        var text = ""
        var index = start + 1
        while index < characters.count {
            let character = characters[index]
            if character == quote { return (text, index + 1) }
            if character == "\\", index + 1 < characters.count {
                let escaped = characters[index + 1]
                text.append(escaped == "n" ? "\n" : escaped == "t" ? "\t" : escaped)
                index += 2
            } else {
                text.append(character)
                index += 1
            }
        }
        throw .malformed("unbalanced quote \(quote)", at: start + 1)
    }

    /// A format specifier after `%`: the longest of `specifiers` that follows.
    private static func argument(
        _ characters: [Character], from start: Int
    ) throws(PredicateFormatError) -> (String, Int) {
        let rest = String(characters[(start + 1)..<min(characters.count, start + 4)])
        let found = specifiers.filter { rest.hasPrefix($0) }.max { $0.count < $1.count }
        guard let found else {
            throw .malformed("unknown format specifier %\(rest.prefix(1))", at: start + 1)
        }
        return (found, start + 1 + found.count)
    }

    private static func isWordPart(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    private static func isDigit(_ character: Character) -> Bool {
        character.isASCII && character.isNumber
    }

    private static func startsNumber(_ characters: [Character], _ index: Int) -> Bool {
        index < characters.count && isDigit(characters[index])
    }

    /// Where a number's digits, fraction and exponent end.
    private static func numberEnd(_ characters: [Character], from start: Int) -> Int {
        var index = start
        func digits() { while startsNumber(characters, index) { index += 1 } }
        digits()
        if index < characters.count, characters[index] == ".", startsNumber(characters, index + 1) {
            index += 1
            digits()
        }
        if index < characters.count, characters[index] == "e" || characters[index] == "E" {
            var next = index + 1
            if next < characters.count, characters[next] == "-" || characters[next] == "+" {
                next += 1
            }
            if startsNumber(characters, next) {
                index = next
                digits()
            }
        }
        return index
    }
}
