extension Value {
    /// The literal read as a value of `type`, or nil when it does not fit that type.
    ///
    /// `nil` gives `.null` for every type (whether nil is allowed is the declaration's
    /// business); labels give nil, since they are relationship values.
    public func attributeValue(for type: AttributeType) -> AttributeValue? {
        if case .null = literal { return .null }
        switch type {
        case .string:
            if case .string(let text) = literal { return .string(text) }
            if case .generatedText(let count) = literal { return .generatedText(byteCount: count) }
        case .int:
            if case .integer(let number) = literal { return .int(number) }
        case .double:
            return doubleValue.map(AttributeValue.double)
        case .bool:
            if case .bool(let flag) = literal { return .bool(flag) }
        case .date:
            if case .string(let text) = literal {
                return LiteralFormats.microsecondsSince1970(text).map {
                    .date(microsecondsSince1970: $0)
                }
            }
        case .uuid:
            if case .string(let text) = literal {
                return LiteralFormats.canonicalUUIDText(text).map(AttributeValue.uuid)
            }
        case .url:
            if case .string(let text) = literal, LiteralFormats.isURL(text) { return .url(text) }
        case .data:
            if case .hexData(let bytes) = literal { return .data(bytes) }
            if case .generatedBytes(let count) = literal { return .generatedData(byteCount: count) }
        }
        return nil
    }

    /// An integer or decimal literal as a finite `Double` (correctly rounded).
    private var doubleValue: Double? {
        switch literal {
        case .integer(let number):
            return Double(number)
        case .decimal(let text):
            guard let value = Double(text), value.isFinite else { return nil }
            return value
        default:
            return nil
        }
    }
}
