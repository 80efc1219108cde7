/// Strings put together from their UTF-8 bytes in one buffer sized first: interpolation,
/// `+` and `joined(separator:)` append piece by piece through the generic string machinery,
/// on every stored change's note, zone name and change tag.
enum TextConcatenation {
    /// `parts` with the ASCII `separator` between each two, as `joined(separator:)` makes it.
    static func joined(_ parts: [String], separator: UInt8) -> String {
        switch parts.count {
        case 0: return ""
        // The one part itself, its storage shared.
        case 1: return parts[0]
        default: break
        }
        var count = parts.count - 1
        for index in parts.indices { count += parts[index].utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var end = 0
            for index in parts.indices {
                if index > 0 {
                    buffer[end] = separator
                    end += 1
                }
                end = copy(parts[index], into: buffer, at: end)
            }
            return end
        }
    }

    /// `first`, the ASCII `separator`, then `second`.
    static func joined(_ first: String, _ separator: UInt8, _ second: String) -> String {
        let count = first.utf8.count + 1 + second.utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            var end = copy(first, into: buffer, at: 0)
            buffer[end] = separator
            end += 1
            return copy(second, into: buffer, at: end)
        }
    }

    /// The ASCII `prefix` followed by the decimal digits of `number`, as
    /// `prefix + String(number)` makes it.
    static func prefixed(_ prefix: StaticString, _ number: Int64) -> String {
        guard number >= 0 else { return prefix.description + String(number) }
        var digits = 1
        var rest = number / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let prefixCount = prefix.utf8CodeUnitCount
        return String(unsafeUninitializedCapacity: prefixCount + digits) { buffer in
            for index in 0..<prefixCount { buffer[index] = prefix.utf8Start[index] }
            var value = number
            var position = prefixCount + digits
            repeat {
                position -= 1
                buffer[position] = UInt8(truncatingIfNeeded: value % 10) &+ UInt8(ascii: "0")
                value /= 10
            } while value > 0
            return prefixCount + digits
        }
    }

    /// Copies the UTF-8 bytes of `text` into `buffer` from `start`; returns the end.
    private static func copy(
        _ text: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int
    ) -> Int {
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let source = bytes.baseAddress, let target = buffer.baseAddress else {
                return start
            }
            (target + start).update(from: source, count: bytes.count)
            return start + bytes.count
        }
        if let copied { return copied }
        var end = start
        for byte in text.utf8 {
            buffer[end] = byte
            end += 1
        }
        return end
    }
}
