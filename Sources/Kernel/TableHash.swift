/// The hash a `Dictionary` or `Set` files a key under, for a key that already has a word of
/// its own to hash (a model's identifier, a record name's `RecordNameHash`): the word and the
/// table's seed mixed by MurmurHash3's 64-bit finalizer.
///
/// Through `Hasher`, such a key would pay SipHash-1-3 (a seed, a combine and a finalization) on
/// every lookup. A key returns this from `_rawHashValue(seed:)`, the hook `Dictionary` and `Set`
/// hash through, and feeds the same word to `hash(into:)` for every other hasher, so equal keys
/// hash alike either way. A table's buckets are never walked for an answer (every reader sorts:
/// docs/ENGINE-CONTRACT.md, determinism), so the hash never shows.
public enum TableHash {
    @inlinable
    public static func mix(_ word: UInt64, seed: Int) -> Int {
        Int(truncatingIfNeeded: finalize(word ^ UInt64(truncatingIfNeeded: seed)))
    }

    /// MurmurHash3's 64-bit finalizer (`fmix64`): every bit of the word reaches every bit of
    /// the result. `RecordNameHash` ends with it too.
    @inlinable
    public static func finalize(_ word: UInt64) -> UInt64 {
        var bits = word
        bits ^= bits >> 33
        bits &*= 0xFF51_AFD7_ED55_8CCD
        bits ^= bits >> 33
        bits &*= 0xC4CE_B9FE_1A85_EC53
        bits ^= bits >> 33
        return bits
    }
}
