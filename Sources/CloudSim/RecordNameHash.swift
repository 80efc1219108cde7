import Kernel

/// The hash a zone's record index files a name under, consistent with `String`'s `==`
/// (canonical equivalence).
///
/// `Hasher` (SipHash-1-3) over every byte of a name would be most of each lookup of a zone's change
/// feed. An ASCII name (every record name the engines draw, and most a scenario gives) is hashed
/// from its bytes, eight at a time, each word mixed in by a multiplication, then MurmurHash3's
/// 64-bit finalizer. Another name is hashed by `Hasher`, unless it is canonically equivalent to an
/// ASCII string (only three characters decompose to ASCII: U+037E, U+1FEF, U+212A), which is then
/// hashed as that string. The same in every process except for the `Hasher` case, and the buckets'
/// order never shows (the index only answers lookups). Public for the engines' own name tables (the
/// sds engine's `RecordTable` files its names by it too), and inlinable so a lookup in another
/// module costs no call.
public enum RecordNameHash {
    @inlinable
    public static func hash(_ name: String) -> Int {
        let ascii =
            name.utf8.withContiguousStorageIfAvailable { asciiHash(UnsafeRawBufferPointer($0)) }
            ?? {
                var copy = name
                return copy.withUTF8 { asciiHash(UnsafeRawBufferPointer($0)) }
            }()
        if let ascii { return ascii }
        return nonASCIIHash(name)
    }

    @usableFromInline
    static func nonASCIIHash(_ name: String) -> Int {
        var equivalent = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            switch scalar.value {
            case 0x037E: equivalent.append(";")
            case 0x1FEF: equivalent.append("`")
            case 0x212A: equivalent.append("K")
            default: equivalent.append(scalar)
            }
        }
        var folded = String(equivalent)
        if let ascii = folded.withUTF8({ asciiHash(UnsafeRawBufferPointer($0)) }) { return ascii }
        // Seeded per process, like every `Hasher`: only where a name goes in the index, which
        // never shows.
        var hasher = Hasher()
        hasher.combine(name)
        return hasher.finalize()
    }

    /// The hash of ASCII bytes; nil when a byte is not ASCII.
    ///
    /// Read through the buffer's base address with wrapping arithmetic: the buffer's own
    /// loads check its base for nil and the offsets for overflow on every word. The same
    /// words mixed in the same order: the same hash.
    @inlinable
    static func asciiHash(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        let count = bytes.count
        var state = UInt64(truncatingIfNeeded: count) &* multiplier
        var highBits: UInt64 = 0
        // No base address: an empty buffer, whose hash is its length's alone.
        if let base = bytes.baseAddress {
            let wholeWords = count &>> 3
            var offset = 0
            var word = 0
            while word < wholeWords {
                let value = UInt64(
                    littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                highBits |= value
                state = (state ^ value) &* multiplier
                state ^= state &>> 32
                offset &+= 8
                word &+= 1
            }
            let rest = count &- offset
            if rest > 0 {
                // The last 1–7 bytes as the low bits of a word (little-endian): read with the
                // word that ends the name, which overlaps bytes already mixed in, and shift
                // those out; a name shorter than a word is read by `shortTail`.
                var tail: UInt64 = 0
                if count >= 8 {
                    tail = UInt64(
                        littleEndian: base.loadUnaligned(
                            fromByteOffset: count &- 8, as: UInt64.self))
                    tail &>>= UInt64(truncatingIfNeeded: 8 &- rest) &* 8
                } else {
                    tail = shortTail(base, count: rest)
                }
                highBits |= tail
                state = (state ^ tail) &* multiplier
            }
        }
        guard highBits & 0x8080_8080_8080_8080 == 0 else { return nil }
        return Int(truncatingIfNeeded: TableHash.finalize(state))
    }

    /// The 1–7 bytes of a name shorter than a word, as the low bytes of one (little-endian):
    /// two loads that overlap (the bytes they share are the same), not one load a byte.
    @inlinable
    static func shortTail(_ base: UnsafeRawPointer, count: Int) -> UInt64 {
        if count >= 4 {
            let low = UInt32(littleEndian: base.loadUnaligned(as: UInt32.self))
            let high = UInt32(
                littleEndian: base.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            return UInt64(low) | UInt64(high) &<< (UInt64(truncatingIfNeeded: count &- 4) &* 8)
        }
        if count >= 2 {
            let low = UInt16(littleEndian: base.loadUnaligned(as: UInt16.self))
            let high = UInt16(
                littleEndian: base.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self))
            return UInt64(low) | UInt64(high) &<< (UInt64(truncatingIfNeeded: count &- 2) &* 8)
        }
        return UInt64(base.load(as: UInt8.self))
    }
}
