import CloudSim

/// Reads a predicate format string into the server's `QueryPredicate`, for the subset CloudKit
/// queries accept (Apple's `CKQuery` documentation): `TRUEPREDICATE`, `FALSEPREDICATE`, a key
/// compared with a value (`==`, `!=`, `<`, `<=`, `>`, `>=` and their other spellings),
/// `BEGINSWITH`, `IN`, `BETWEEN`, a list key's `CONTAINS` (also `ANY key == value` and
/// `value IN key`), the tokenized `self CONTAINS 'words'` (also `allTokens TOKENMATCHES`),
/// `NOT`, joined by `AND` / `&&` with parentheses. Anything else is an error naming the part,
/// never a guess.
struct PredicateFormatParser {
    private let tokens: [PredicateToken]
    private var index = 0
    private var arguments: PredicateArguments

    /// The predicate `format` describes with `arguments` substituted in order.
    static func parse(
        _ format: String, arguments: [Any]
    ) -> Result<QueryPredicate, PredicateFormatError> {
        do throws(PredicateFormatError) {
            var parser = PredicateFormatParser(
                tokens: try PredicateFormatLexer.tokens(format),
                arguments: PredicateArguments(arguments))
            let predicate = try parser.conjunction()
            let next = parser.peek
            guard next.kind == .end else {
                if next.keyword == "OR" || next.kind == .symbol("||") {
                    throw .unsupported("OR", at: next.position)
                }
                throw .malformed("unexpected \(describe(next))", at: next.position)
            }
            return .success(predicate)
        } catch {
            return .failure(error)
        }
    }

    private init(tokens: [PredicateToken], arguments: PredicateArguments) {
        self.tokens = tokens
        self.arguments = arguments
    }

    private var peek: PredicateToken { tokens[index] }

    private mutating func next() -> PredicateToken {
        let token = tokens[index]
        if token.kind != .end { index += 1 }
        return token
    }

    /// `primary (AND primary)*`.
    private mutating func conjunction() throws(PredicateFormatError) -> QueryPredicate {
        var parts = [try primary()]
        while peek.keyword == "AND" || peek.kind == .symbol("&&") {
            _ = next()
            parts.append(try primary())
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    /// A parenthesized conjunction, `TRUEPREDICATE`, `FALSEPREDICATE` or a comparison.
    private mutating func primary() throws(PredicateFormatError) -> QueryPredicate {
        let token = peek
        if token.kind == .symbol("(") {
            _ = next()
            let inner = try conjunction()
            let close = next()
            guard close.kind == .symbol(")") else {
                if close.keyword == "OR" || close.kind == .symbol("||") {
                    throw .unsupported("OR", at: close.position)
                }
                throw .malformed("missing ) for the ( at character \(token.position), "
                    + "found \(Self.describe(close))", at: close.position)
            }
            return inner
        }
        switch token.keyword {
        case "TRUEPREDICATE":
            _ = next()
            return .all
        case "FALSEPREDICATE":
            _ = next()
            return .none
        case "NOT":
            _ = next()
            return .not(try primary())
        case "ANY":
            _ = next()
            return try anyComparison()
        case "SELF":
            _ = next()
            return try tokenSearch(after: token)
        case "ALL", "SOME", "NONE", "SUBQUERY":
            throw .unsupported(token.keyword ?? "", at: token.position)
        default:
            if token.kind == .symbol("!") {
                _ = next()
                return .not(try primary())
            }
            if let contained = try valueInKey() { return contained }
            return try comparison()
        }
    }

    /// After `ANY`: `key == value` (a list key holding the value), `key BEGINSWITH 'prefix'`,
    /// or `{ values } == key` (the key equal to one of them).
    private mutating func anyComparison() throws(PredicateFormatError) -> QueryPredicate {
        if peek.kind == .symbol("{") || peek.kind == .argument("@") {
            let values = try list()
            let operation = next()
            guard operation.kind == .symbol("==") || operation.kind == .symbol("=") else {
                throw .unsupported("ANY { … } with \(Self.describe(operation))",
                    at: operation.position)
            }
            return .in(key: try key(), values)
        }
        let key = try self.key()
        let operation = next()
        try refuseModifier(after: operation)
        if operation.kind == .symbol("==") || operation.kind == .symbol("=") {
            return .contains(key: key, try value())
        }
        if operation.keyword == "BEGINSWITH" { return .beginsWith(key: key, try prefix()) }
        throw .unsupported("ANY with \(Self.describe(operation))", at: operation.position)
    }

    /// After `self`: `CONTAINS 'words'`, the tokenized search of the record's strings.
    private mutating func tokenSearch(
        after token: PredicateToken
    ) throws(PredicateFormatError) -> QueryPredicate {
        let operation = next()
        guard operation.keyword == "CONTAINS" else {
            throw .unsupported("self with \(Self.describe(operation)) (self only CONTAINS)",
                at: token.position)
        }
        return .tokens(try text(for: "CONTAINS"))
    }

    /// `'red' IN favoriteColors`: a value first, then `IN` and a key; nil for anything else.
    private mutating func valueInKey() throws(PredicateFormatError) -> QueryPredicate? {
        switch peek.kind {
        case .string, .number, .argument("@"), .argument("d"), .argument("i"), .argument("f"):
            break
        default:
            return nil
        }
        guard tokens[min(index + 1, tokens.count - 1)].keyword == "IN" else { return nil }
        let value = try value()
        _ = next()
        return .contains(key: try key(), value)
    }

    /// A string value (`BEGINSWITH`'s prefix).
    private mutating func prefix() throws(PredicateFormatError) -> String {
        try text(for: "BEGINSWITH")
    }

    /// A string value for `operation`; anything else is refused.
    private mutating func text(for operation: String) throws(PredicateFormatError) -> String {
        let position = peek.position
        guard case .string(let text) = try value() else {
            throw .unsupported("\(operation) with a value other than a string", at: position)
        }
        return text
    }

    /// `key OP value`, `key BEGINSWITH value`, `key IN list`, `key BETWEEN { lo, hi }`.
    private mutating func comparison() throws(PredicateFormatError) -> QueryPredicate {
        let key = try self.key()
        let operation = next()
        let comparison = Self.comparisons[operation.kind]
        try refuseModifier(after: operation)
        if let comparison {
            return .compare(key: key, comparison, try value())
        }
        switch operation.keyword {
        case "BEGINSWITH":
            return .beginsWith(key: key, try prefix())
        case "CONTAINS":
            return .contains(key: key, try value())
        case "TOKENMATCHES" where key == "allTokens":
            return .tokens(try text(for: "TOKENMATCHES"))
        case "IN":
            return .in(key: key, try list())
        case "BETWEEN":
            let position = peek.position
            let bounds = try list()
            guard bounds.count == 2 else {
                throw .malformed("BETWEEN needs two values, found \(bounds.count)", at: position)
            }
            return .and([
                .compare(key: key, .greaterOrEqual, bounds[0]),
                .compare(key: key, .lessOrEqual, bounds[1]),
            ])
        case "ENDSWITH", "LIKE", "MATCHES", "OR", "NOT":
            throw .unsupported(operation.keyword ?? "", at: operation.position)
        default:
            if operation.kind == .end {
                throw .malformed("an operator expected after \(key)", at: operation.position)
            }
            throw .unsupported("the operator \(Self.describe(operation))", at: operation.position)
        }
    }

    /// `==[c]`, `BEGINSWITH[cd]`: options CloudKit queries do not take, except the tokenized
    /// search's (`TOKENMATCHES[cdl]`), which is case- and diacritic-insensitive anyway.
    private mutating func refuseModifier(
        after operation: PredicateToken
    ) throws(PredicateFormatError) {
        guard peek.kind == .symbol("[") else { return }
        if operation.keyword == "TOKENMATCHES" {
            while peek.kind != .end, next().kind != .symbol("]") {}
            return
        }
        let options = tokens[index...].prefix { $0.kind != .symbol("]") }.dropFirst()
            .compactMap(\.keyword).joined().lowercased()
        throw .unsupported("the option [\(options)] of \(Self.describe(operation))",
            at: peek.position)
    }

    /// The key: an identifier or `%K`; key paths, functions and values are refused.
    private mutating func key() throws(PredicateFormatError) -> String {
        let token = next()
        let key: String
        switch token.kind {
        case .word(let word) where !Self.reserved.contains(word.uppercased()):
            key = word.hasPrefix("#") ? String(word.dropFirst()) : word
        case .argument("K"):
            key = try arguments.key(at: token.position)
        case .end:
            throw .malformed("a key expected", at: token.position)
        case .symbol("$"):
            throw .unsupported("a variable ($)", at: token.position)
        default:
            throw .unsupported("\(Self.describe(token)) where a key belongs (a key must come "
                + "first)", at: token.position)
        }
        if peek.kind == .symbol(".") {
            let rest = Self.describe(tokens[min(index + 1, tokens.count - 1)])
            throw .unsupported("the key path \(key).\(rest)", at: token.position)
        }
        if peek.kind == .symbol("(") {
            throw .unsupported("the function \(key)()", at: token.position)
        }
        if CKRecord.systemFieldKeys.contains(key), !Self.queryableSystemFields.contains(key) {
            throw .unsupported("the system field \(key) (not modelled)", at: token.position)
        }
        return key
    }

    /// A constant: an argument, a quoted string, a number or a Boolean.
    private mutating func value() throws(PredicateFormatError) -> CloudValue {
        let token = next()
        switch token.kind {
        case .argument(let specifier):
            return try arguments.value(specifier, at: token.position)
        case .string(let text):
            return .string(text)
        case .number(let text):
            if let integer = Int64(text) { return .int(integer) }
            guard let double = Double(text) else {
                throw .malformed("the number \(text) is out of range", at: token.position)
            }
            return .double(double)
        case .end:
            throw .malformed("a value expected", at: token.position)
        default:
            switch token.keyword {
            case "TRUE", "YES": return .int(1)
            case "FALSE", "NO": return .int(0)
            case "NIL", "NULL": throw .unsupported("a nil value", at: token.position)
            default:
                throw .unsupported("\(Self.describe(token)) where a value belongs (a key "
                    + "compared with a key)", at: token.position)
            }
        }
    }

    /// `{ v1, v2, … }` or an argument that is an array.
    private mutating func list() throws(PredicateFormatError) -> [CloudValue] {
        let open = next()
        if case .argument("@") = open.kind {
            return try arguments.list(at: open.position)
        }
        guard open.kind == .symbol("{") else {
            throw .malformed("a list { … } or %@ expected, found \(Self.describe(open))",
                at: open.position)
        }
        var values: [CloudValue] = []
        if peek.kind == .symbol("}") {
            _ = next()
            return values
        }
        while true {
            values.append(try value())
            let separator = next()
            if separator.kind == .symbol("}") { return values }
            guard separator.kind == .symbol(",") else {
                throw .malformed("a , or } expected in the list at character \(open.position), "
                    + "found \(Self.describe(separator))", at: separator.position)
            }
        }
    }

    static let comparisons: [PredicateToken.Kind: QueryComparison] = [
        .symbol("=="): .equal, .symbol("="): .equal, .symbol("!="): .notEqual,
        .symbol("<>"): .notEqual, .symbol("<"): .less, .symbol("<="): .lessOrEqual,
        .symbol("=<"): .lessOrEqual, .symbol(">"): .greater, .symbol(">="): .greaterOrEqual,
        .symbol("=>"): .greaterOrEqual,
    ]

    /// The system fields a query reads (`CloudRecord.queryValue`).
    static let queryableSystemFields: Set<String> = ["creationDate", "modificationDate", "recordID"]

    /// Words that are keywords of the syntax, never keys.
    static let reserved: Set<String> = [
        "AND", "OR", "NOT", "TRUEPREDICATE", "FALSEPREDICATE", "BEGINSWITH", "ENDSWITH",
        "CONTAINS", "LIKE", "MATCHES", "IN", "BETWEEN", "ANY", "ALL", "SOME", "NONE",
        "SUBQUERY", "TRUE", "YES", "FALSE", "NO", "NIL", "NULL", "SELF", "FUNCTION",
    ]

    /// A token as an error message names it.
    static func describe(_ token: PredicateToken) -> String {
        switch token.kind {
        case .word(let word): return word
        case .string(let text): return "'\(text)'"
        case .number(let text): return text
        case .argument(let specifier): return "%" + specifier
        case .symbol(let symbol): return symbol
        case .end: return "the end"
        }
    }
}
