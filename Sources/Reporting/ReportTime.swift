/// Simulated times as reports print them: exact, short, and the same on every machine.
///
/// Latencies drawn from a range give times like 4 460 749 µs; a report keeps every digit
/// (`4.460749s`) because rounding could make two events look simultaneous, and uses hours
/// and minutes once a run is long enough for seconds to be hard to read.
public enum ReportTime {
    /// `0s`, `0.8s`, `4.460749s`, `1m30s`, `2h0m5.5s`.
    public static func text(microseconds value: Int64) -> String {
        if value < 0 { return "-" + text(microseconds: value == .min ? .max : -value) }
        let totalSeconds = value / 1_000_000
        let fraction = value % 1_000_000
        let hours = totalSeconds / 3_600
        let minutes = totalSeconds % 3_600 / 60
        let seconds = totalSeconds % 60
        let secondsText = fraction == 0
            ? String(seconds)
            : String(seconds) + "." + fractionDigits(fraction)
        if hours > 0 {
            if minutes == 0 && seconds == 0 && fraction == 0 { return "\(hours)h" }
            return "\(hours)h\(minutes)m" + (seconds == 0 && fraction == 0 ? "" : secondsText + "s")
        }
        if minutes > 0 {
            return "\(minutes)m" + (seconds == 0 && fraction == 0 ? "" : secondsText + "s")
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
