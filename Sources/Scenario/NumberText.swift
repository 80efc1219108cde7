/// The parts of a number token (`-1.50ms`): sign, digits, fraction digits and unit suffix.
///
/// Durations, sizes and percentages are scaled from this text with integer arithmetic only,
/// so `1.5s` is exactly 1_500_000 microseconds and `0.1s` is never 99_999.
struct NumberText: Hashable, Sendable {
    var isNegative: Bool
    var wholeDigits: String
    var fractionDigits: String
    var suffix: String

    init(_ text: String) {
        if let parts = Self.asciiParts(text) {
            (isNegative, wholeDigits, fractionDigits, suffix) = parts
            return
        }
        var rest = Substring(text)
        isNegative = rest.first == "-"
        if isNegative { rest = rest.dropFirst() }
        let whole = rest.prefix { $0.isASCII && $0.isNumber }
        rest = rest.dropFirst(whole.count)
        var fraction = Substring("")
        if rest.first == "." {
            fraction = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(1 + fraction.count)
        }
        wholeDigits = String(whole)
        fractionDigits = String(fraction)
        suffix = String(rest)
    }

    /// `init`'s parts of an ASCII text, found byte by byte (where a character is a byte);
    /// nil for another text.
    private static func asciiParts(
        _ text: String
    ) -> (isNegative: Bool, whole: String, fraction: String, suffix: String)? {
        var text = text
        return text.withUTF8 { bytes -> (Bool, String, String, String)? in
            for byte in bytes where byte >= 0x80 { return nil }
            func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
            func string(_ range: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            var position = 0
            let isNegative = bytes.first == 0x2D
            if isNegative { position = 1 }
            let wholeStart = position
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            let whole = wholeStart..<position
            var fraction = position..<position
            if position < bytes.count, bytes[position] == 0x2E {
                position += 1
                let fractionStart = position
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
                fraction = fractionStart..<position
            }
            return (isNegative, string(whole), string(fraction), string(position..<bytes.count))
        }
    }

    /// The number without its unit, as written (`-1.50`).
    var numberText: String {
        (isNegative ? "-" : "") + wholeDigits + (fractionDigits.isEmpty ? "" : "." + fractionDigits)
    }

    var hasFraction: Bool { !fractionDigits.isEmpty }

    /// Why an exact scaling failed.
    enum ScalingFailure: Error, Hashable {
        /// The result is not a whole number of the target unit.
        case inexact
        /// The result does not fit in 63 bits.
        case tooLarge
    }

    /// The magnitude times `scale`, exactly, ignoring the sign.
    func scaledMagnitude(by scale: UInt64) -> Result<Int64, ScalingFailure> {
        guard let whole = Self.parseDigits(wholeDigits) else { return .failure(.tooLarge) }
        let (wholeScaled, wholeOverflow) = whole.multipliedReportingOverflow(by: scale)
        if wholeOverflow { return .failure(.tooLarge) }
        var fraction = Substring(fractionDigits)
        while fraction.last == "0" { fraction = fraction.dropLast() }
        var fractionScaled: UInt64 = 0
        if !fraction.isEmpty {
            // Past 18 digits no scale used here (at most 2^30 or 3.6e9) can give a whole number.
            guard fraction.count <= 18, let digits = Self.parseDigits(String(fraction)) else {
                return .failure(.inexact)
            }
            var divisor: UInt64 = 1
            for _ in 0..<fraction.count { divisor *= 10 }
            let product = digits.multipliedFullWidth(by: scale)
            // digits < divisor, so the quotient is below `scale` and cannot overflow.
            let (quotient, remainder) = divisor.dividingFullWidth(product)
            if remainder != 0 { return .failure(.inexact) }
            fractionScaled = quotient
        }
        let (total, overflow) = wholeScaled.addingReportingOverflow(fractionScaled)
        if overflow || total > UInt64(Int64.max) { return .failure(.tooLarge) }
        return .success(Int64(total))
    }

    /// The value as a signed 64-bit integer; nil when it has a fraction or does not fit.
    var integerValue: Int64? {
        guard !hasFraction, let magnitude = Self.parseDigits(wholeDigits) else { return nil }
        if isNegative {
            if magnitude == UInt64(Int64.max) + 1 { return Int64.min }
            return magnitude <= UInt64(Int64.max) ? -Int64(magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// The unsigned value of whole digits, nil when it does not fit in 64 bits.
    static func parseDigits(_ digits: String) -> UInt64? {
        var value: UInt64 = 0
        for scalar in digits.unicodeScalars {
            guard ("0"..."9").contains(scalar) else { return nil }
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(UInt64(scalar.value - 48))
            if overflow1 || overflow2 { return nil }
            value = sum
        }
        return value
    }
}
