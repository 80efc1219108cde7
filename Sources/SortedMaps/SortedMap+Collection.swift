/// A map is a collection of its pairs in key order: `for (key, value) in map`, `first`,
/// `map`, `reduce`, `contains(where:)`, `allSatisfy` and `sorted(by:)` read it as they read a
/// `Dictionary`, in a deterministic order.
extension SortedMap: RandomAccessCollection {
    /// A position in a map: valid until the map changes (as a `Dictionary.Index`). A type of
    /// its own, so that the positional subscript never competes with the key subscript of a
    /// map keyed by integers.
    public struct Index: Comparable, Hashable, Sendable {
        @usableFromInline
        internal var offset: Int

        @inlinable
        internal init(offset: Int) {
            self.offset = offset
        }

        @inlinable
        public static func < (lhs: Index, rhs: Index) -> Bool { lhs.offset < rhs.offset }
    }

    public typealias Indices = DefaultIndices<SortedMap>

    @inlinable
    public var startIndex: Index { Index(offset: 0) }

    @inlinable
    public var endIndex: Index { Index(offset: elements.count) }

    @inlinable
    public var count: Int { elements.count }

    @inlinable
    public var isEmpty: Bool { elements.isEmpty }

    @inlinable
    public func index(after index: Index) -> Index { Index(offset: index.offset + 1) }

    @inlinable
    public func index(before index: Index) -> Index { Index(offset: index.offset - 1) }

    @inlinable
    public func index(_ index: Index, offsetBy distance: Int) -> Index {
        Index(offset: index.offset + distance)
    }

    @inlinable
    public func distance(from start: Index, to end: Index) -> Int { end.offset - start.offset }

    @inlinable
    public subscript(position: Index) -> Element { elements[position.offset] }
}
