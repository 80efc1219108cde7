import Kernel

/// Trace lines read back as events, so tests ask for an event's kind, a detail or a rule
/// rather than search the line's text (which breaks when a field is added or reordered).
extension TraceEvent {
    /// The value of the first detail named `key`, nil when the event has none.
    public subscript(detail key: String) -> TraceValue? {
        details.first { $0.key == key }?.value
    }

    /// The string of a detail, nil when it is missing or not a string.
    public func string(_ key: String) -> String? {
        if case .string(let text)? = self[detail: key] { return text }
        return nil
    }

    /// Every string among the event's details, nested ones included, in order.
    public var detailStrings: [String] {
        func strings(_ value: TraceValue) -> [String] {
            switch value {
            case .string(let text): return [text]
            case .list(let values): return values.flatMap(strings)
            case .object(let fields): return fields.flatMap { strings($0.value) }
            case .int, .bool, .null: return []
            }
        }
        return details.flatMap { strings($0.value) }
    }

    /// An event from one line of `--trace-out` (the inverse of `jsonLine`); nil when the
    /// line is not an event written by `Trace.jsonLine`.
    public static func decoded(_ line: some StringProtocol) -> TraceEvent? {
        var reader = TraceJSONReader(Array(line.utf8))
        guard case .object(let fields)? = reader.value(), reader.atEnd else { return nil }
        func field(_ key: String) -> TraceValue? { fields.first { $0.key == key }?.value }
        guard case .int(let time)? = field("time"), case .string(let actor)? = field("actor"),
            case .string(let kind)? = field("kind"), case .object(let details)? = field("details"),
            case .list(let rules)? = field("rules")
        else { return nil }
        let names = rules.compactMap { rule -> String? in
            if case .string(let name) = rule { return name }
            return nil
        }
        guard names.count == rules.count else { return nil }
        return TraceEvent(
            time: SimTime(microseconds: time), actor: actor, kind: kind, details: details,
            rules: names)
    }

    /// Every event of a JSON Lines text, in order; lines that are not events are skipped.
    public static func decodedLines(_ text: some StringProtocol) -> [TraceEvent] {
        text.split(separator: "\n").compactMap { decoded($0) }
    }
}

/// Reads the JSON subset `TraceValue` writes, keeping the order of object keys.
private struct TraceJSONReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func value() -> TraceValue? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""): return string().map(TraceValue.string)
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return list()
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return integer()
        }
    }

    private mutating func literal(_ word: String, _ value: TraceValue) -> TraceValue? {
        let word = Array(word.utf8)
        guard bytes[index...].starts(with: word) else { return nil }
        index += word.count
        return value
    }

    private mutating func integer() -> TraceValue? {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            index += 1
        }
        return Int64(String(decoding: bytes[start..<index], as: UTF8.self)).map(TraceValue.int)
    }

    private mutating func string() -> String? {
        index += 1
        var scalars: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return String(decoding: scalars, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\"), index < bytes.count else {
                scalars.append(byte)
                continue
            }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): scalars.append(UInt8(ascii: "\n"))
            case UInt8(ascii: "t"): scalars.append(UInt8(ascii: "\t"))
            case UInt8(ascii: "r"): scalars.append(UInt8(ascii: "\r"))
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "u"):
                guard index + 4 <= bytes.count,
                    let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self),
                        radix: 16),
                    let scalar = Unicode.Scalar(code)
                else { return nil }
                index += 4
                scalars += Array(String(Character(scalar)).utf8)
            default: scalars.append(escaped)
            }
        }
        return nil
    }

    private mutating func object() -> TraceValue? {
        index += 1
        var fields: [TraceField] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(fields)
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\""), let key = string(),
                index < bytes.count, bytes[index] == UInt8(ascii: ":")
            else { return nil }
            index += 1
            guard let value = value(), index < bytes.count else { return nil }
            fields.append(TraceField(key, value))
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "}") { return .object(fields) }
            guard separator == UInt8(ascii: ",") else { return nil }
        }
        return nil
    }

    private mutating func list() -> TraceValue? {
        index += 1
        var values: [TraceValue] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .list(values)
        }
        while index < bytes.count {
            guard let value = value(), index < bytes.count else { return nil }
            values.append(value)
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "]") { return .list(values) }
            guard separator == UInt8(ascii: ",") else { return nil }
        }
        return nil
    }
}
