/// The keys on which two maps differ, found by walking both in key order.
extension SortedMap where Value: Equatable {
    /// Calls `body` with each key that only one of the maps has, or that both have with
    /// unequal values, in key order.
    ///
    /// The pairs are read where they are stored: the `keys` and `values` views would retain
    /// both maps' storage twice, and reading a pair out of the array copies it whole. Two
    /// maps sharing their storage differ nowhere and are not walked.
    @inlinable
    public func forEachKeyDiffering(
        from other: SortedMap, _ body: (Key) throws -> Void
    ) rethrows {
        try elements.withUnsafeBufferPointer { mine in
            try other.elements.withUnsafeBufferPointer { theirs in
                if mine.count == theirs.count, mine.baseAddress == theirs.baseAddress { return }
                try Self.forEachKeyDiffering(mine, theirs, body)
            }
        }
    }

    /// `forEachKeyDiffering(from:_:)` over the two maps' pairs.
    @inlinable
    internal static func forEachKeyDiffering(
        _ mine: UnsafeBufferPointer<Element>,
        _ theirs: UnsafeBufferPointer<Element>,
        _ body: (Key) throws -> Void
    ) rethrows {
        let stride = MemoryLayout<Element>.stride
        // Memory bound to a tuple is bound to its elements at their offsets: the key's is
        // zero, the value's `valueOffset`.
        func key(_ pairs: UnsafeBufferPointer<Element>, _ offset: Int) -> UnsafePointer<Key> {
            (UnsafeRawPointer(pairs.baseAddress.unsafelyUnwrapped) + offset * stride)
                .assumingMemoryBound(to: Key.self)
        }
        func value(_ pairs: UnsafeBufferPointer<Element>, _ offset: Int) -> UnsafePointer<Value> {
            (UnsafeRawPointer(pairs.baseAddress.unsafelyUnwrapped) + offset * stride
                + valueOffset).assumingMemoryBound(to: Value.self)
        }
        var other = 0
        for offset in 0..<mine.count {
            let current = key(mine, offset)
            // Keys only the other map has, before this one.
            while other < theirs.count, key(theirs, other).pointee < current.pointee {
                try body(key(theirs, other).pointee)
                other += 1
            }
            if other < theirs.count, key(theirs, other).pointee == current.pointee {
                if value(theirs, other).pointee != value(mine, offset).pointee {
                    try body(current.pointee)
                }
                other += 1
            } else {
                try body(current.pointee)
            }
        }
        while other < theirs.count {
            try body(key(theirs, other).pointee)
            other += 1
        }
    }
}
