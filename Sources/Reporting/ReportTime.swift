import Kernel

/// Simulated times as reports print them: exact, short, and the same on every machine.
///
/// Latencies drawn from a range give times like 4 460 749 µs; a report keeps every digit
/// (`4.460749s`) because rounding could make two events look simultaneous, and uses hours
/// and minutes once a run is long enough for seconds to be hard to read.
public enum ReportTime {
    /// `0s`, `0.8s`, `4.460749s`, `1m30s`, `2h0m5.5s`.
    public static func text(microseconds value: Int64) -> String {
        SimTime(microseconds: value).description
    }
}
