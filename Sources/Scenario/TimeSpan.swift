/// A span of simulated time in whole microseconds, parsed exactly from text like `1.5s`.
///
/// The kernel counts time in integer microseconds; keeping the same unit here means no
/// floating point ever touches a duration between the file and the simulation.
public struct TimeSpan: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var microseconds: Int64

    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    public static let zero = TimeSpan(microseconds: 0)

    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool {
        lhs.microseconds < rhs.microseconds
    }

    /// The shortest exact text in the units of the format (`250ms`, `1.5s`, `12us`).
    public var description: String {
        let value = microseconds.magnitude
        let sign = microseconds < 0 ? "-" : ""
        if value == 0 { return "0s" }
        if value % 1_000 != 0 { return "\(sign)\(value)us" }
        if value < 1_000_000 { return "\(sign)\(value / 1_000)ms" }
        let whole = value / 1_000_000
        let fraction = value % 1_000_000
        if fraction == 0 { return "\(sign)\(whole)s" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(sign)\(whole).\(digits)s"
    }
}

/// A duration that is either fixed or drawn from a closed range each time one is needed.
///
/// Latencies may vary (`50ms..300ms`); the harness draws from the seeded generator, so the
/// tree only records the bounds.
public enum DurationSpecification: Hashable, Sendable, CustomStringConvertible {
    case fixed(TimeSpan)
    /// Both bounds included; `lower <= upper` holds in any tree the parser returns.
    case range(lower: TimeSpan, upper: TimeSpan)

    public var description: String {
        switch self {
        case .fixed(let span): return span.description
        case .range(let lower, let upper): return "\(lower)..\(upper)"
        }
    }
}

/// A probability as an integer count of parts per million (`10%` is 100_000, `0.5%` 5_000).
///
/// Probabilities are integer ratios so a draw decides the same on every machine.
public struct Probability: Hashable, Sendable, Comparable, CustomStringConvertible {
    public static let denominator: Int64 = 1_000_000

    public var partsPerMillion: Int64

    public init(partsPerMillion: Int64) {
        self.partsPerMillion = partsPerMillion
    }

    public static let zero = Probability(partsPerMillion: 0)

    public static func < (lhs: Probability, rhs: Probability) -> Bool {
        lhs.partsPerMillion < rhs.partsPerMillion
    }

    /// The percentage as written in the format, e.g. `10%` or `0.5%`.
    public var description: String {
        let whole = partsPerMillion / 10_000
        let fraction = partsPerMillion % 10_000
        if fraction == 0 { return "\(whole)%" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 4 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)%"
    }
}
