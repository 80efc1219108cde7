import Kernel

/// A one-way network latency: fixed, or drawn from a seeded generator each time it is needed.
public enum Latency: Hashable, Sendable, CustomStringConvertible {
    case fixed(SimTime)
    case range(SimTime, SimTime)

    /// Draws one latency (a fixed one draws nothing, so it never shifts other draws).
    public func draw(_ generator: inout Xoshiro256StarStar) -> SimTime {
        switch self {
        case .fixed(let value):
            return value
        case .range(let low, let high):
            let lower = min(low.microseconds, high.microseconds)
            let upper = max(low.microseconds, high.microseconds)
            return SimTime(microseconds: generator.int(in: lower...upper))
        }
    }

    public var description: String {
        switch self {
        case .fixed(let value): return value.description
        case .range(let low, let high): return "\(low)..\(high)"
        }
    }
}
