import Kernel

/// Where the simulated clock stands on the calendar: time zero is 2023-11-14 22:13:20 UTC
/// (1,700,000,000 s since 1970). Records' dates, the dates a device's code reads and the dates
/// a query compares all read it.
public enum SimulatedCalendar {
    public static let startSecondsSince1970: Int64 = 1_700_000_000

    /// A simulated time in milliseconds since 1970, as CloudKit keeps dates.
    public static func milliseconds(_ time: SimTime) -> Int64 {
        startSecondsSince1970 * 1000 + time.microseconds / 1000
    }

    /// A simulated time in microseconds since 1970.
    public static func microseconds(_ time: SimTime) -> Int64 {
        startSecondsSince1970 * 1_000_000 + time.microseconds
    }

    /// A device's uptime at time zero: a day, so no monotonic reading is ever zero.
    public static let startUptimeSeconds: Int64 = 86_400

    /// What a device's monotonic clocks read at a simulated time, in microseconds.
    public static func uptimeMicroseconds(_ time: SimTime) -> Int64 {
        startUptimeSeconds * 1_000_000 + time.microseconds
    }
}
