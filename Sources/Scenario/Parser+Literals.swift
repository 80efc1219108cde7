/// Durations, ranges, sizes, percentages, counts and values.
extension Parser {
    static let durationUnits: [(name: String, microseconds: UInt64)] = [
        ("us", 1), ("ms", 1_000), ("s", 1_000_000), ("m", 60_000_000), ("h", 3_600_000_000),
        ("d", 86_400_000_000),
    ]

    static let sizeUnits: [(name: String, bytes: UInt64)] = [
        ("B", 1), ("KB", 1_024), ("MB", 1_048_576), ("GB", 1_073_741_824),
    ]

    /// A duration such as `250ms` or `1.5s`, exact in microseconds. Unless `counts` is false
    /// (the budget itself), it is kept in `ScenarioFile.durations`, which the validator holds
    /// against the run's time budget.
    mutating func parseDuration(counts: Bool = true) -> Located<TimeSpan>? {
        let token = current
        guard token.kind == .number else {
            report(.expected("a duration such as '5s'", found: token), at: token.location)
            return nil
        }
        advance()
        let number = NumberText(token.text)
        let units = Self.durationUnits
        guard let unit = units.first(where: { $0.name == number.suffix }) else {
            let names = units.map(\.name)
            if number.suffix.isEmpty {
                report(.durationWithoutUnit(token.text, suggestions: [token.text + "s"]),
                    at: token.location)
            } else {
                var closest = Suggestions.closest(to: number.suffix, among: names)
                if closest.isEmpty {
                    // `5sec`, `2min`, `1hr`: the longest unit the suffix starts with.
                    let prefixes = names.filter { number.suffix.hasPrefix($0) }
                    closest = prefixes.max { $0.count < $1.count }.map { [$0] } ?? []
                }
                let suggestions = closest.map { number.numberText + $0 }
                report(.unknownDurationUnit(token.text, suggestions: suggestions),
                    at: token.location)
            }
            return nil
        }
        if number.isNegative {
            report(.negativeDuration(token.text), at: token.location)
            return nil
        }
        switch number.scaledMagnitude(by: unit.microseconds) {
        case .success(let microseconds):
            let duration = Located(TimeSpan(microseconds: microseconds), at: token.location)
            if counts { scenario.durations.append(duration) }
            return duration
        case .failure(.inexact):
            report(.inexactDuration(token.text), at: token.location)
        case .failure(.tooLarge):
            report(.durationTooLarge(token.text), at: token.location)
        }
        return nil
    }

    /// A duration or a range of durations, `50ms..300ms`.
    mutating func parseDurationSpecification() -> DurationSpecification? {
        guard let lower = parseDuration() else { return nil }
        guard current.kind == .dotDot else { return .fixed(lower.value) }
        advance()
        guard let upper = parseDuration() else { return nil }
        if upper.value < lower.value {
            report(.invertedRange(lower: lower.value, upper: upper.value), at: lower.location)
            return nil
        }
        return .range(lower: lower.value, upper: upper.value)
    }

    /// A size such as `300KB` (1 KB = 1024 bytes), exact in bytes.
    mutating func parseSize() -> Int? {
        let token = current
        guard token.kind == .number else {
            report(.expected("a size such as '300KB'", found: token), at: token.location)
            return nil
        }
        advance()
        let number = NumberText(token.text)
        guard let unit = Self.sizeUnits.first(where: { $0.name == number.suffix }) else {
            let names = Self.sizeUnits.map(\.name)
            let suggestions = Suggestions.closest(to: number.suffix, among: names)
                .map { number.numberText + $0 }
            report(.invalidSize(token.text, suggestions: suggestions), at: token.location)
            return nil
        }
        guard !number.isNegative else {
            report(.invalidSize(token.text), at: token.location)
            return nil
        }
        switch number.scaledMagnitude(by: unit.bytes) {
        case .success(let bytes):
            return Int(bytes)
        case .failure(.inexact):
            report(.inexactSize(token.text), at: token.location)
        case .failure(.tooLarge):
            report(.sizeTooLarge(token.text), at: token.location)
        }
        return nil
    }

    /// A percentage from `0%` to `100%` with at most four decimals, exact in parts per million.
    mutating func parsePercentage() -> Probability? {
        let token = current
        guard token.kind == .number, NumberText(token.text).suffix == "%" else {
            report(.expected("a percentage such as '10%'", found: token), at: token.location)
            if token.kind == .number { advance() }
            return nil
        }
        advance()
        let number = NumberText(token.text)
        guard !number.isNegative,
            case .success(let parts) = number.scaledMagnitude(by: 10_000),
            parts <= Probability.denominator
        else {
            report(.invalidPercentage(token.text), at: token.location)
            return nil
        }
        return Probability(partsPerMillion: parts)
    }

    /// A whole number at least `minimum`, without a unit.
    mutating func parseCount(_ what: String, minimum: Int) -> Int? {
        let token = current
        guard token.kind == .number else {
            report(.expected(what, found: token), at: token.location)
            return nil
        }
        advance()
        let number = NumberText(token.text)
        guard number.suffix.isEmpty, !number.hasFraction else {
            report(.expected(what, found: token), at: token.location)
            return nil
        }
        guard let value = number.integerValue else {
            report(number.isNegative ? .numberTooSmall(token.text, minimum: minimum)
                : .countTooLarge(token.text), at: token.location)
            return nil
        }
        guard value >= minimum else {
            report(.numberTooSmall(token.text, minimum: minimum), at: token.location)
            return nil
        }
        return Int(value)
    }

    /// `key=value key=value ...` while the next tokens have that shape.
    mutating func parseAssignments() -> [Assignment]? {
        var assignments: [Assignment] = []
        while current.kind == .identifier && peek().kind == .equals {
            guard let key = name("a property name") else { return nil }
            advance()
            guard let value = parseValue() else { return nil }
            assignments.append(Assignment(key: key, value: value))
        }
        return assignments
    }

    /// A literal: string, number, `true`/`false`/`nil`, label, `text(SIZE)`, `bytes(SIZE)`,
    /// `hex"..."`.
    mutating func parseValue() -> Value? {
        let token = current
        switch token.kind {
        case .string:
            advance()
            return Value(.string(token.value), text: token.text, location: token.location)
        case .hexData:
            advance()
            return parseHexData(token)
        case .number:
            advance()
            return parseNumberValue(token)
        case .identifier:
            return parseWordValue()
        default:
            report(.expected("a value", found: token), at: token.location)
            return nil
        }
    }

    private mutating func parseNumberValue(_ token: Token) -> Value? {
        let number = NumberText(token.text)
        guard number.suffix.isEmpty else {
            report(.unexpectedUnit(token.text), at: token.location)
            return nil
        }
        if number.hasFraction {
            return Value(.decimal(token.text), text: token.text, location: token.location)
        }
        guard let integer = number.integerValue else {
            report(.integerTooLarge(token.text), at: token.location)
            return nil
        }
        return Value(.integer(integer), text: token.text, location: token.location)
    }

    private mutating func parseWordValue() -> Value? {
        let token = advance()
        let location = token.location
        switch token.text {
        case "true": return Value(.bool(true), text: token.text, location: location)
        case "false": return Value(.bool(false), text: token.text, location: location)
        case "nil": return Value(.null, text: token.text, location: location)
        case "text", "bytes":
            guard current.kind == .leftParenthesis else { break }
            advance()
            let sizeToken = current
            let sizeText = sizeToken.text
            guard let size = parseSize(), expect(.rightParenthesis, "')'") != nil else {
                return nil
            }
            // Checked here, where the size is read, so no later pass ever sees a value it
            // could not allocate.
            guard size <= Limits.maximumGeneratedBytes else {
                report(.generatedValueTooLarge("\(token.text)(\(sizeText))"),
                    at: sizeToken.location)
                return nil
            }
            let literal: ValueLiteral = token.text == "text"
                ? .generatedText(byteCount: size) : .generatedBytes(byteCount: size)
            return Value(literal, text: "\(token.text)(\(sizeText))", location: location)
        default:
            break
        }
        guard !token.text.contains(".") else {
            report(.expected("a value", found: token), at: location)
            return nil
        }
        return Value(.label(token.text), text: token.text, location: location)
    }

    private mutating func parseHexData(_ token: Token) -> Value? {
        var bytes: [UInt8] = []
        var high: UInt8?
        for scalar in token.value.unicodeScalars {
            guard let digit = Self.hexDigit(scalar) else {
                report(.invalidHexData(token.text), at: token.location)
                return nil
            }
            if let first = high {
                bytes.append(first << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        guard high == nil else {
            report(.invalidHexData(token.text), at: token.location)
            return nil
        }
        return Value(.hexData(bytes), text: token.text, location: token.location)
    }

    static func hexDigit(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar {
        case "0"..."9": return UInt8(scalar.value - 48)
        case "a"..."f": return UInt8(scalar.value - 87)
        case "A"..."F": return UInt8(scalar.value - 55)
        default: return nil
        }
    }
}
