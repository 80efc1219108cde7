/// One identity attribute's value, in the forms RULES.md lets an identity hold (ID-1).
public enum IdentityValue: Sendable, Hashable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    /// Whole milliseconds since 1970-01-01T00:00:00Z, already rounded down by the caller
    /// (for a date before 1970 that is towards minus infinity: -1.5 ms is -2).
    case date(millisecondsSince1970: Int64)
    /// A UUID in its hyphenated text form; it is upper-cased when encoded.
    case uuid(String)
    /// A URL's absolute string.
    case url(String)
    case data([UInt8])
}

/// Record names of models, the same on every device that holds the same identity values.
///
/// The encoding is fixed in RULES.md ("Identity record names, exactly") because the seed does
/// not give one, and every engine profile that names records by identity must agree on it.
public enum RecordName {
    /// Returns `<entity>.<hex>`, `hex` being the lowercase SHA-256 of `identityText(values)`.
    public static func identityName(entity: String, values: [IdentityValue]) -> String {
        entity + "." + SHA256.hexDigest(Array(identityText(values).utf8))
    }

    /// Returns the text that is hashed: `TAG:LEN:TEXT;` for each value in order.
    ///
    /// TAG is one letter per kind (`s i d b t u l x`), TEXT the value's canonical text and
    /// LEN the byte length of TEXT's UTF-8 in decimal.
    public static func identityText(_ values: [IdentityValue]) -> String {
        var text = ""
        for value in values {
            let (tag, canonical) = encode(value)
            text += "\(tag):\(canonical.utf8.count):\(canonical);"
        }
        return text
    }

    /// The tag and canonical text of one value (RULES.md lists each form).
    static func encode(_ value: IdentityValue) -> (tag: Character, text: String) {
        switch value {
        case .string(let text):
            return ("s", text)
        case .int(let number):
            return ("i", String(number))
        case .double(let number):
            // Swift's shortest round-trip form: 1.0, 0.1, 1e-05, 1e+16, -0.0, inf, nan.
            return ("d", number.description)
        case .bool(let flag):
            return ("b", flag ? "true" : "false")
        case .date(let milliseconds):
            return ("t", String(milliseconds))
        case .uuid(let text):
            return ("u", asciiUppercased(text))
        case .url(let text):
            return ("l", text)
        case .data(let bytes):
            return ("x", SHA256.hex(bytes))
        }
    }

    /// Upper-cases ASCII letters only, so the result never depends on locale or Unicode data.
    static func asciiUppercased(_ text: String) -> String {
        let bytes = text.utf8.map { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
