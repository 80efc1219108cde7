/// A literal as written in a file, before it is read as an attribute's type.
public enum ValueLiteral: Hashable, Sendable {
    /// `"text"`, escapes already resolved.
    case string(String)
    /// `12`, `-3`: fits in 64 bits (larger numbers are an error).
    case integer(Int64)
    /// `-3.5`: kept as its exact decimal text; `Value.attributeValue(for:)` reads it.
    case decimal(String)
    case bool(Bool)
    /// `nil`: clears an optional; in a cloud expectation, the record lacks the key.
    case null
    /// A label, for relationships.
    case label(String)
    /// `text(300KB)`: deterministic generated text of that many UTF-8 bytes.
    case generatedText(byteCount: Int)
    /// `bytes(2MB)`: deterministic generated data of that many bytes.
    case generatedBytes(byteCount: Int)
    /// `hex"00ff"`.
    case hexData([UInt8])
}

/// A literal with its source text and position.
public struct Value: Hashable, Sendable, CustomStringConvertible {
    public var literal: ValueLiteral
    /// The exact source text, e.g. `1.50` or `"a\n"` with its quotes and escapes.
    public var text: String
    public var location: SourceLocation

    public init(_ literal: ValueLiteral, text: String, location: SourceLocation) {
        self.literal = literal
        self.text = text
        self.location = location
    }

    public var description: String { text }
}

/// `key=value` in an insert, update, filter or expectation.
public struct Assignment: Hashable, Sendable {
    public var key: Located<String>
    public var value: Value

    public init(key: Located<String>, value: Value) {
        self.key = key
        self.value = value
    }
}

/// A literal read as the value of an attribute type: what the harness stores or compares.
public enum AttributeValue: Hashable, Sendable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    /// Microseconds since 1970-01-01T00:00:00Z (UTC).
    case date(microsecondsSince1970: Int64)
    /// Upper case with hyphens, the canonical text of RULES.md's identity encoding.
    case uuid(String)
    case url(String)
    case data([UInt8])
    case generatedText(byteCount: Int)
    case generatedData(byteCount: Int)
    case null
}
