import Checkers
import LocalStore
import Scenario

/// Reads a literal of a scenario file as a value of an attribute type.
public enum ValueConversion {
    /// The store value a literal stands for, or nil for `nil` and for literals that do not
    /// fit the type (the validator rejects those before a run).
    public static func attributeValue(
        _ literal: ValueLiteral, type: LocalStore.AttributeType
    ) -> LocalStore.AttributeValue? {
        switch (type, literal) {
        case (.string, .string(let text)), (.url, .string(let text)):
            return type == .string ? .string(text) : .url(text)
        case (.string, .generatedText(let count)):
            return .string(generatedText(byteCount: count))
        case (.int, .integer(let number)):
            return .int(number)
        case (.double, .integer(let number)):
            return .double(Double(number))
        case (.double, .decimal(let text)):
            return Double(text).map { .double($0) }
        case (.bool, .bool(let flag)):
            return .bool(flag)
        case (.date, .string(let text)):
            return ISODate.millisecondsSince1970(text).map { .date(millisecondsSince1970: $0) }
        case (.uuid, .string(let text)):
            return .uuid(text.uppercased())
        case (.data, .hexData(let bytes)):
            return .data(bytes)
        case (.data, .generatedBytes(let count)):
            return .data(generatedBytes(byteCount: count))
        case (.data, .generatedText(let count)):
            return .data(Array(generatedText(byteCount: count).utf8))
        default:
            return nil
        }
    }

    /// `text(N)`: N bytes of lower-case letters in a fixed cycle, the same on every run.
    public static func generatedText(byteCount: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz ".utf8)
        var bytes = [UInt8](repeating: 0, count: max(0, byteCount))
        for index in bytes.indices { bytes[index] = alphabet[index % alphabet.count] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `bytes(N)`: N bytes in a fixed cycle through the bytes 0 to 250.
    public static func generatedBytes(byteCount: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, byteCount))
        for index in bytes.indices { bytes[index] = UInt8(index % 251) }
        return bytes
    }

    /// How a value reads in messages: strings quoted, large values summarised.
    public static func describe(_ value: LocalStore.AttributeValue?) -> String {
        ValueDescription.describe(value)
    }
}
