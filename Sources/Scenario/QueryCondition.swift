/// One part of a `query` expectation's `where` clause: `FIELD OP VALUE`, a field of the record
/// as stored compared the way the server's query compares it (a SyncLab addition).
public struct QueryCondition: Hashable, Sendable {
    public var field: Located<String>
    public var comparison: Located<QueryOperator>
    public var value: Value

    public init(field: Located<String>, comparison: Located<QueryOperator>, value: Value) {
        self.field = field
        self.comparison = comparison
        self.value = value
    }
}

/// The comparisons a `query` expectation may write: `CKQuery`'s `==`, `<`, `<=`, `>`, `>=`,
/// spelled as the format spells them elsewhere.
public enum QueryOperator: String, CaseIterable, Hashable, Sendable {
    case equal = "="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    init?(token: Token) {
        switch token.kind {
        case .equals: self = .equal
        case .comparison: self.init(rawValue: token.text)
        default: return nil
        }
    }

    /// Whether it orders values (which a label or bytes cannot be).
    public var orders: Bool { self != .equal }
}
