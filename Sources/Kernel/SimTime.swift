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
        // Written byte by byte into a buffer on the stack, then made a string once: an
        // engine writes a time into the trace at every retry it schedules, and a cloud
        // error's description holds one, so building it from pieces (the fraction padded,
        // then trimmed) costs too much. Not written into the string's own storage: a
        // capacity over 15 bytes always allocates one, though almost every time fits in a
        // small string.
        // The longest, "2562047788h0m54.775807s", has 23 bytes.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { bytes in
            var count = 0
            func put(byte: UInt8) {
                bytes[count] = byte
                count += 1
            }
            func put(_ number: Int64) {
                var width = 0
                var rest = number
                repeat {
                    width += 1
                    rest /= 10
                } while rest > 0
                var position = count + width
                rest = number
                repeat {
                    position -= 1
                    bytes[position] = UInt8(truncatingIfNeeded: rest % 10) + 0x30
                    rest /= 10
                } while rest > 0
                count += width
            }
            // The first `count` bytes, as a string: up to 15, a small one, neither allocated
            // nor validated (all ASCII); `String(decoding:as:)` validated them.
            func string(_ count: Int) -> String {
                String(unsafeUninitializedCapacity: count) { target in
                    target.initialize(fromContentsOf: bytes[..<count])
                }
            }
            let totalSeconds = value / 1_000_000
            let fraction = value % 1_000_000
            let hours = totalSeconds / 3_600
            let minutes = totalSeconds % 3_600 / 60
            let seconds = totalSeconds % 60
            let wholeMinutes = seconds == 0 && fraction == 0
            if hours > 0 {
                put(hours)
                put(byte: 0x68)  // h
                if minutes == 0 && wholeMinutes { return string(count) }
            }
            if hours > 0 || minutes > 0 {
                put(minutes)
                put(byte: 0x6D)  // m
                if wholeMinutes { return string(count) }
            }
            put(seconds)
            if fraction != 0 {
                put(byte: 0x2E)  // .
                // The six digits of the fraction, without trailing zeros.
                var divisor: Int64 = 100_000
                var rest = fraction
                while rest > 0 {
                    put(byte: UInt8(truncatingIfNeeded: rest / divisor) + 0x30)
                    rest %= divisor
                    divisor /= 10
                }
            }
            put(byte: 0x73)  // s
            return string(count)
        }
    }
}
