/// How a `count` expectation compares the number it finds with the number written (`=` as in
/// the reference format; the bounds `>=`, `<=`, `>`, `<` are a SyncLab addition).
public enum CountComparison: String, CaseIterable, Hashable, Sendable {
    case equal = "="
    case atLeast = ">="
    case atMost = "<="
    case moreThan = ">"
    case fewerThan = "<"

    /// The comparison a token spells (`=` or a comparison token), nil for any other.
    init?(token: Token) {
        switch token.kind {
        case .equals: self = .equal
        case .comparison: self.init(rawValue: token.text)
        default: return nil
        }
    }

    /// The smallest count that can be written after it: `< 0` never holds.
    var minimumCount: Int { self == .fewerThan ? 1 : 0 }

    /// Whether `actual` models or records satisfy the bound `expected`.
    public func holds(_ actual: Int, _ expected: Int) -> Bool {
        switch self {
        case .equal: return actual == expected
        case .atLeast: return actual >= expected
        case .atMost: return actual <= expected
        case .moreThan: return actual > expected
        case .fewerThan: return actual < expected
        }
    }
}
