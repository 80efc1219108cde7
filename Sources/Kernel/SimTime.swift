/// A point or span of simulated time, counted in whole microseconds from the start of a run.
///
/// Time is an integer so that ordering never depends on floating-point rounding; only the
/// kernel advances it.
public struct SimTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    @inlinable
    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    public static let zero = SimTime(microseconds: 0)
    /// The latest representable time, for budgets that should never be reached.
    public static let max = SimTime(microseconds: .max)

    @inlinable
    public static func microseconds(_ value: Int64) -> SimTime { SimTime(microseconds: value) }
    @inlinable
    public static func milliseconds(_ value: Int64) -> SimTime {
        SimTime(microseconds: value * 1_000)
    }
    @inlinable
    public static func seconds(_ value: Int64) -> SimTime {
        SimTime(microseconds: value * 1_000_000)
    }
    @inlinable
    public static func minutes(_ value: Int64) -> SimTime { .seconds(value * 60) }
    @inlinable
    public static func hours(_ value: Int64) -> SimTime { .seconds(value * 3_600) }

    @inlinable
    public static func < (lhs: SimTime, rhs: SimTime) -> Bool {
        lhs.microseconds < rhs.microseconds
    }
    @inlinable
    public static func + (lhs: SimTime, rhs: SimTime) -> SimTime {
        SimTime(microseconds: lhs.microseconds + rhs.microseconds)
    }
    @inlinable
    public static func - (lhs: SimTime, rhs: SimTime) -> SimTime {
        SimTime(microseconds: lhs.microseconds - rhs.microseconds)
    }
    @inlinable
    public static func += (lhs: inout SimTime, rhs: SimTime) { lhs = lhs + rhs }

    /// A compact, exact rendering in the largest unit that is exact: `0s`, `1.5s`, `250ms`,
    /// `12us`.
    ///
    /// Reports and diagnostics show times this way; the trace itself uses microseconds.
    public var description: String {
        let value = microseconds
        if value == 0 { return "0s" }
        let sign = value < 0 ? "-" : ""
        let magnitude = value.magnitude
        if magnitude % 1_000 != 0 { return "\(sign)\(magnitude)us" }
        if magnitude % 1_000_000 != 0 && magnitude < 1_000_000 {
            return "\(sign)\(magnitude / 1_000)ms"
        }
        let whole = magnitude / 1_000_000
        let fraction = magnitude % 1_000_000
        if fraction == 0 { return "\(sign)\(whole)s" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(sign)\(whole).\(digits)s"
    }
}
