/// Reads the string forms of dates, UUIDs and URLs that scenario values use.
///
/// Foundation is avoided on purpose: these few formats are fixed by the format reference,
/// and parsing them here keeps the result identical on every platform.
enum LiteralFormats {
    /// `YYYY-MM-DDTHH:MM:SS[.ffffff]Z` (UTC, up to 6 fraction digits) as microseconds since
    /// 1970-01-01T00:00:00Z; nil when the text is not such a date.
    static func microsecondsSince1970(_ text: String) -> Int64? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 20, scalars.count <= 27, scalars.last == "Z" else { return nil }
        let separators: [(Int, Unicode.Scalar)] = [
            (4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"),
        ]
        for (index, separator) in separators where scalars[index] != separator { return nil }
        guard let year = digits(scalars, 0, 4), let month = digits(scalars, 5, 2),
            let day = digits(scalars, 8, 2), let hour = digits(scalars, 11, 2),
            let minute = digits(scalars, 14, 2), let second = digits(scalars, 17, 2)
        else { return nil }
        var microseconds: Int64 = 0
        let fractionEnd = scalars.count - 1
        if fractionEnd > 19 {
            guard scalars[19] == ".", fractionEnd - 20 >= 1,
                let fraction = digits(scalars, 20, fractionEnd - 20)
            else { return nil }
            var scale: Int64 = 1
            for _ in 0..<(6 - (fractionEnd - 20)) { scale *= 10 }
            microseconds = fraction * scale
        } else if fractionEnd != 19 {
            return nil
        }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
        return seconds * 1_000_000 + microseconds
    }

    /// The UUID in upper case with hyphens, or nil when the text is not 8-4-4-4-12 hex digits.
    static func canonicalUUIDText(_ text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 36 else { return nil }
        var result = ""
        for (index, scalar) in scalars.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard scalar == "-" else { return nil }
                result.unicodeScalars.append(scalar)
            } else {
                guard Parser.hexDigit(scalar) != nil else { return nil }
                result += String(scalar).uppercased()
            }
        }
        return result
    }

    /// Whether the text is an absolute URL: `scheme:rest`, no spaces or control characters.
    static func isURL(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard let colon = scalars.firstIndex(of: ":"), colon > 0, colon < scalars.count - 1,
            Lexer.isLetter(scalars[0])
        else { return false }
        let schemeIsValid = scalars[1..<colon].allSatisfy {
            Lexer.isLetter($0) || Lexer.isDigit($0) || $0 == "+" || $0 == "-" || $0 == "."
        }
        let restIsValid = scalars[(colon + 1)...].allSatisfy {
            $0.value > 0x20 && $0.value != 0x7F && !$0.properties.isWhitespace
        }
        return schemeIsValid && restIsValid
    }

    private static func digits(_ scalars: [Unicode.Scalar], _ start: Int, _ count: Int) -> Int64? {
        guard count > 0, start + count <= scalars.count else { return nil }
        var value: Int64 = 0
        for scalar in scalars[start..<(start + count)] {
            guard Lexer.isDigit(scalar) else { return nil }
            value = value * 10 + Int64(scalar.value - 48)
        }
        return value
    }

    private static func isLeapYear(_ year: Int64) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    private static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (Hinnant's days_from_civil).
    private static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
