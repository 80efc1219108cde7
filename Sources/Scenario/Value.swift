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
    private var storedLiteral: ValueLiteral
    /// The source text when it is not just the string between quotes (nil then): a string
    /// without escapes is not kept twice, which for a generated script of a million inserts
    /// is a million strings (each longer than 15 bytes is a heap allocation).
    private var writtenText: String?
    public var location: SourceLocation

    public init(_ literal: ValueLiteral, text: String, location: SourceLocation) {
        storedLiteral = literal
        writtenText = Self.textToKeep(text, for: literal)
        self.location = location
    }

    /// A value whose text is known to the caller: `keptText` nil when it is `literal`'s
    /// string between quotes, else the text (a caller that draws values builds no quoted copy).
    package init(_ literal: ValueLiteral, keptText: String?, location: SourceLocation) {
        storedLiteral = literal
        writtenText = keptText
        self.location = location
    }

    public var literal: ValueLiteral {
        get { storedLiteral }
        set {
            let text = self.text
            storedLiteral = newValue
            writtenText = Self.textToKeep(text, for: newValue)
        }
    }

    /// The exact source text, e.g. `1.50` or `"a\n"` with its quotes and escapes.
    public var text: String {
        get {
            if let writtenText { return writtenText }
            guard case .string(let string) = storedLiteral else { return "" }
            return "\"" + string + "\""
        }
        set { writtenText = Self.textToKeep(newValue, for: storedLiteral) }
    }

    public var description: String { text }

    /// nil when `text` is `literal`'s string between quotes, byte for byte; else `text`.
    private static func textToKeep(_ text: String, for literal: ValueLiteral) -> String? {
        guard case .string(let string) = literal else { return text }
        let bytes = text.utf8
        guard bytes.count == string.utf8.count + 2 else { return text }
        // Compared as contiguous bytes where both strings have them (native and small strings
        // do): the generic walk over the two views' slices is dear for every byte, and the
        // explorer builds a value for every string it draws.
        let quoted = bytes.withContiguousStorageIfAvailable { written in
            string.utf8.withContiguousStorageIfAvailable { inner in
                Self.isQuoted(inner, in: written)
            }
        } ?? nil
        if let quoted { return quoted ? nil : text }
        guard bytes.first == 0x22, bytes.last == 0x22,
              bytes.dropFirst().dropLast().elementsEqual(string.utf8)
        else { return text }
        return nil
    }

    /// Whether `written` is `inner` between two `"` (their lengths already differ by two).
    private static func isQuoted(
        _ inner: UnsafeBufferPointer<UInt8>, in written: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard written.first == 0x22, written.last == 0x22 else { return false }
        for index in 0..<inner.count where inner[index] != written[index + 1] { return false }
        return true
    }
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
