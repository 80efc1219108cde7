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

    /// The one format SyncLab shows times and durations in, to users: exact to the
    /// microsecond, in hours, minutes and seconds once they are long enough that seconds
    /// are hard to read: `0s`, `0.25s`, `4.460749s`, `1m12.864137s`, `2h0m5.5s`, `720h`.
    ///
    /// The CLI, budget messages, runtime failures and reports all use it; the trace itself
    /// stores microseconds.
    public var description: String {
        let value = microseconds
        if value < 0 {
            let magnitude = value == .min ? SimTime.max : SimTime(microseconds: -value)
            return "-" + magnitude.description
        }
        let totalSeconds = value / 1_000_000
        let fraction = value % 1_000_000
        let hours = totalSeconds / 3_600
        let minutes = totalSeconds % 3_600 / 60
        let seconds = totalSeconds % 60
        let secondsText = fraction == 0
            ? String(seconds)
            : String(seconds) + "." + Self.fractionDigits(fraction)
        let wholeMinutes = seconds == 0 && fraction == 0
        if hours > 0 {
            if minutes == 0 && wholeMinutes { return "\(hours)h" }
            return "\(hours)h\(minutes)m" + (wholeMinutes ? "" : secondsText + "s")
        }
        if minutes > 0 {
            return "\(minutes)m" + (wholeMinutes ? "" : secondsText + "s")
        }
        return secondsText + "s"
    }

    /// The six digits of a fraction of a second, without trailing zeros.
    private static func fractionDigits(_ fraction: Int64) -> String {
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return digits
    }
}
