/// `budget time D` / `budget events N`: the bounds of one run (a SyncLab addition).
///
/// Every run stops as a failure when its simulated time would pass the time budget or when
/// it has handled as many kernel events as the event budget allows, so a livelock ends
/// instead of hanging. The file may set either; `synclab run|report|explore --max-time D
/// --max-events N` override the file; the defaults are below.
public struct ScenarioBudget: Hashable, Sendable {
    /// `budget time D`; nil: `defaultTime`.
    public var time: Located<TimeSpan>?
    /// `budget events N`; nil: `defaultEvents`.
    public var events: Located<Int>?

    public init(time: Located<TimeSpan>? = nil, events: Located<Int>? = nil) {
        self.time = time
        self.events = events
    }

    /// 30 days of simulated time.
    public static let defaultTime = TimeSpan(microseconds: 30 * 86_400_000_000)
    /// Two million kernel events.
    public static let defaultEvents = 2_000_000

    /// The time budget when no command line overrides it.
    public var effectiveTime: TimeSpan { time?.value ?? Self.defaultTime }
    /// The event budget when no command line overrides it.
    public var effectiveEvents: Int { events?.value ?? Self.defaultEvents }
}

extension TimeSpan {
    /// The span in the largest unit of the format that writes it exactly, days included
    /// (`30d`, `90m`, `1.5s`, `250ms`): how diagnostics about budgets show durations, so
    /// that what they show can be written back into a file.
    public var unitText: String {
        let value = microseconds.magnitude
        let sign = microseconds < 0 ? "-" : ""
        let units: [(String, UInt64)] = [
            ("d", 86_400_000_000), ("h", 3_600_000_000), ("m", 60_000_000),
        ]
        for (name, size) in units where value >= size && value % size == 0 {
            return "\(sign)\(value / size)\(name)"
        }
        return description
    }
}

extension TimeSpan {
    /// A duration written as the format writes one (`90d`, `1.5s`), for command-line options
    /// such as `--max-time`; the error says what is wrong with the text.
    public static func parse(_ text: String) -> Result<TimeSpan, DurationTextError> {
        let number = NumberText(text)
        guard !number.wholeDigits.isEmpty, number.numberText + number.suffix == text,
            let unit = Parser.durationUnits.first(where: { $0.name == number.suffix })
        else { return .failure(.notADuration) }
        if number.isNegative { return .failure(.negative) }
        switch number.scaledMagnitude(by: unit.microseconds) {
        case .success(let microseconds): return .success(TimeSpan(microseconds: microseconds))
        case .failure(.inexact): return .failure(.inexact)
        case .failure(.tooLarge): return .failure(.tooLarge)
        }
    }
}

/// Why `TimeSpan.parse` refused a text.
public enum DurationTextError: Error, Hashable, Sendable, CustomStringConvertible {
    case notADuration, negative, inexact, tooLarge

    public var description: String {
        switch self {
        case .notADuration:
            return "a duration is a number and a unit: 'us', 'ms', 's', 'm', 'h' or 'd' "
                + "(such as '90d')"
        case .negative: return "a duration must not be negative"
        case .inexact: return "a duration is a whole number of microseconds"
        case .tooLarge: return "the largest duration is '\(TimeSpan(microseconds: .max))'"
        }
    }
}
