/// A value in a trace event's details: the JSON subset a report needs, with ordered objects.
///
/// There is no floating-point case on purpose: a trace must be byte-identical across machines,
/// so quantities are integers (microseconds, bytes, counts).
public enum TraceValue: Sendable, Equatable {
    case string(String)
    case int(Int64)
    case bool(Bool)
    case null
    case list([TraceValue])
    case object([TraceField])
}

/// One key and its value; a list of fields keeps the order it was written in.
public struct TraceField: Sendable, Equatable {
    public var key: String
    public var value: TraceValue

    public init(key: String, value: TraceValue) {
        self.key = key
        self.value = value
    }

    public init(_ key: String, _ value: TraceValue) {
        self.init(key: key, value: value)
    }
}

extension TraceValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension TraceValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) {
        self = .int(value)
    }
}

extension TraceValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension TraceValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: TraceValue...) {
        self = .list(elements)
    }
}

/// A dictionary literal becomes an object whose keys keep the order they were written in.
extension TraceValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, TraceValue)...) {
        self = .object(elements.map { TraceField(key: $0.0, value: $0.1) })
    }
}

extension TraceValue {
    /// Wraps any integer (an `Int` count, a `UInt64` size); it must fit in `Int64`.
    public static func integer(_ value: some BinaryInteger) -> TraceValue {
        .int(Int64(value))
    }

    /// Wraps a time as its whole microseconds, the unit of every time in a trace.
    public static func time(_ value: SimTime) -> TraceValue {
        .int(value.microseconds)
    }
}
