/// ISO 8601 dates of the form `2026-01-01T10:00:00.123Z`, at millisecond precision.
public enum ISODate {
    /// Milliseconds since 1970-01-01T00:00:00Z, rounded down; nil when the text is no such date.
    public static func millisecondsSince1970(_ text: String) -> Int64? {
        let scalars = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= scalars.count else { return nil }
            var value: Int64 = 0
            for byte in scalars[from..<(from + count)] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        guard scalars.count >= 20, scalars[4] == 45, scalars[7] == 45, scalars[10] == 84,
              scalars[13] == 58, scalars[16] == 58,
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var milliseconds: Int64 = 0
        if scalars[index] == 46 {
            index += 1
            var digits = 0
            while index < scalars.count, scalars[index] >= 48, scalars[index] <= 57 {
                if digits < 3 { milliseconds = milliseconds * 10 + Int64(scalars[index] - 48) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            var scale = digits
            while scale < 3 {
                milliseconds *= 10
                scale += 1
            }
        }
        guard index == scalars.count - 1, scalars[index] == 90 else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1_000 + milliseconds
    }

    /// The ISO 8601 text of a millisecond timestamp, always with milliseconds and `Z`.
    public static func text(millisecondsSince1970 value: Int64) -> String {
        let milliseconds = ((value % 1_000) + 1_000) % 1_000
        let totalSeconds = (value - milliseconds) / 1_000
        let secondsOfDay = ((totalSeconds % 86_400) + 86_400) % 86_400
        let days = (totalSeconds - secondsOfDay) / 86_400
        let (year, month, day) = civilFromDays(days)
        func pad(_ number: Int64, _ width: Int) -> String {
            let digits = String(number)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondsOfDay / 3_600, 2)):"
            + "\(pad(secondsOfDay % 3_600 / 60, 2)):\(pad(secondsOfDay % 60, 2))."
            + "\(pad(milliseconds, 3))Z"
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
