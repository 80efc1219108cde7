import CloudSim
import LocalStore

/// A store attribute as a CloudKit field value and back, as every bundled engine encodes it:
/// Bool as 1/0, UUID and URL as strings, Date as milliseconds since 1970, Data as bytes.
///
/// Engines differ in a few readings, which are parameters here rather than copies of the
/// table: whether a UUID read back is uppercased (Foundation's `UUID(uuidString:)` and
/// `uuidString` do; an engine that keeps the field's text as is does not), and whether a
/// String may come back from an asset (sds's overflow asset).
public enum FieldValues {
    /// The field value of an attribute value.
    public static func cloudValue(_ value: AttributeValue) -> CloudValue {
        switch value {
        case .string(let text): return .string(text)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .bool(let flag): return .int(flag ? 1 : 0)
        case .date(let milliseconds): return .date(millisecondsSince1970: milliseconds)
        case .uuid(let text): return .string(text)
        case .url(let text): return .string(text)
        case .data(let bytes): return .bytes(bytes)
        }
    }

    /// The attribute value a field holds, nil when the field's type does not fit the
    /// attribute's (a `record["title"] as? String` that fails). Data is read from bytes or
    /// an asset; an Int field is read as a Double where a Double is expected.
    public static func attributeValue(
        _ value: CloudValue, type: AttributeType,
        uppercasingUUIDs: Bool = true, readingStringsFromAssets: Bool = false
    ) -> AttributeValue? {
        switch (type, value) {
        case (.string, .string(let text)): return .string(text)
        case (.string, .asset(let bytes)) where readingStringsFromAssets:
            return .string(String(decoding: bytes, as: UTF8.self))
        case (.int, .int(let number)): return .int(number)
        case (.double, .double(let number)): return .double(number)
        case (.double, .int(let number)): return .double(Double(number))
        case (.bool, .int(let number)): return .bool(number != 0)
        case (.date, .date(let milliseconds)): return .date(millisecondsSince1970: milliseconds)
        case (.uuid, .string(let text)): return .uuid(uppercasingUUIDs ? text.uppercased() : text)
        case (.url, .string(let text)): return .url(text)
        case (.data, .bytes(let bytes)), (.data, .asset(let bytes)): return .data(bytes)
        default: return nil
        }
    }
}
