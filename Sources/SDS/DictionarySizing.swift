extension Dictionary {
    /// An empty map with room for `capacity` entries, made by code specialized for its types.
    ///
    /// `Dictionary(minimumCapacity:)` runs unspecialized; a map made from a sequence sizes
    /// itself by the sequence's `underestimatedCount` in specialized code, which leaves only
    /// the storage's allocation to the runtime.
    @inline(__always)
    static func sized(_ capacity: Int) -> Self {
        Dictionary(NoPairs(expected: capacity), uniquingKeysWith: { first, _ in first })
    }
}

/// No pairs, but `expected` of them announced: sizes a map made from it (`Dictionary.sized`).
struct NoPairs<Key, Value>: Sequence, IteratorProtocol {
    let expected: Int

    var underestimatedCount: Int { expected }

    mutating func next() -> (Key, Value)? { nil }
}
