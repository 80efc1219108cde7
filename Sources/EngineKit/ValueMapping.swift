import CloudSim
import LocalStore
import SyncContract

/// How an engine writes an attribute's value into a record's field and reads it back.
public enum ValueMapping: Hashable, Sendable {
    /// `FieldValues`' table: Bool as 1/0, UUID and URL as strings, Date as milliseconds since
    /// 1970, Data as bytes (or read from an asset); `uppercasingUUIDs` as there.
    case fieldValues(uppercasingUUIDs: Bool)
    /// Date as seconds since 1970 in a Double, and UUIDs never reach iCloud (nil: the field
    /// is cleared); the rest as `fieldValues`.
    case secondsSince1970

    /// The field value of an attribute value; nil when the mapping leaves the type out.
    @inlinable
    public func cloudValue(_ value: AttributeValue) -> CloudValue? {
        switch self {
        case .fieldValues:
            return FieldValues.cloudValue(value)
        case .secondsSince1970:
            switch value {
            case .date(let milliseconds): return .double(Double(milliseconds) / 1000)
            case .uuid: return nil
            default: return FieldValues.cloudValue(value)
            }
        }
    }

    /// The attribute value a field holds, nil when the field's type does not fit.
    @inlinable
    public func attributeValue(_ value: CloudValue, type: AttributeType) -> AttributeValue? {
        switch self {
        case .fieldValues(let uppercasingUUIDs):
            return FieldValues.attributeValue(value, type: type, uppercasingUUIDs: uppercasingUUIDs)
        case .secondsSince1970:
            switch (type, value) {
            case (.date, .double(let seconds)):
                return .date(millisecondsSince1970: Int64((seconds * 1000).rounded()))
            case (.date, _), (.uuid, _): return nil
            default: return FieldValues.attributeValue(value, type: type)
            }
        }
    }
}
