import SyncLabEngineKit

/// How notes are laid out in iCloud (NOTES-1): one zone, `Notes`; record type = entity;
/// one field per attribute.
public struct NotesCodec: RecordCodec {
    public init() {}

    public var zoneNames: [String] { ["Notes"] }

    public func recordType(ofEntity entity: String) -> String { entity }

    public func entity(ofRecordType type: String) -> String? { type }

    public func value(of attribute: String, type: AttributeType, in record: CloudRecord) -> AttributeValue? {
        record.fields[attribute].flatMap { NotesCodec.attributeValue($0, type: type) }
    }

    public func reference(of relationship: String, in record: CloudRecord) -> String? { nil }

    static func cloudValue(_ value: AttributeValue) -> CloudValue {
        switch value {
        case .string(let text), .uuid(let text), .url(let text): return .string(text)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .bool(let flag): return .int(flag ? 1 : 0)
        case .date(let milliseconds): return .date(millisecondsSince1970: milliseconds)
        case .data(let bytes): return .bytes(bytes)
        }
    }

    static func attributeValue(_ value: CloudValue, type: AttributeType) -> AttributeValue? {
        switch (type, value) {
        case (.string, .string(let text)): return .string(text)
        case (.uuid, .string(let text)): return .uuid(text)
        case (.url, .string(let text)): return .url(text)
        case (.int, .int(let number)): return .int(number)
        case (.double, .double(let number)): return .double(number)
        case (.bool, .int(let number)): return .bool(number != 0)
        case (.date, .date(let milliseconds)): return .date(millisecondsSince1970: milliseconds)
        case (.data, .bytes(let bytes)): return .data(bytes)
        default: return nil
        }
    }
}
