extension SortedMap {
    /// The keys, in order.
    @inlinable
    public var keys: Keys { Keys(elements: elements) }

    /// The values, in the order of their keys.
    @inlinable
    public var values: Values { Values(elements: elements) }

    /// Whether every key satisfies `predicate`, asked in key order until one does not.
    ///
    /// The keys are read where the map stores them: through `keys`, the view copied the
    /// map's storage reference (retained and released) for each walk.
    @inlinable
    public func allKeysSatisfy(_ predicate: (Key) throws -> Bool) rethrows -> Bool {
        for offset in 0..<elements.count where try !predicate(Self.key(at: offset, in: elements)) {
            return false
        }
        return true
    }

    /// A map's keys, in order: a view that shares the map's storage (as `Dictionary.Keys`).
    public struct Keys: RandomAccessCollection, Equatable {
        @usableFromInline
        internal let elements: ContiguousArray<Element>

        @inlinable
        internal init(elements: ContiguousArray<Element>) {
            self.elements = elements
        }

        @inlinable
        public var startIndex: Int { 0 }

        @inlinable
        public var endIndex: Int { elements.count }

        @inlinable
        public subscript(position: Int) -> Key { SortedMap.key(at: position, in: elements) }

        /// Whether the map has `key`: found as the map finds it, not by walking every key.
        @inlinable
        public func contains(_ key: Key) -> Bool {
            SortedMap.search(key, in: elements).found
        }

        @inlinable
        public static func == (lhs: Keys, rhs: Keys) -> Bool { lhs.elementsEqual(rhs) }
    }

    /// A map's values, in the order of their keys: a view that shares the map's storage.
    public struct Values: RandomAccessCollection {
        @usableFromInline
        internal let elements: ContiguousArray<Element>

        @inlinable
        internal init(elements: ContiguousArray<Element>) {
            self.elements = elements
        }

        @inlinable
        public var startIndex: Int { 0 }

        @inlinable
        public var endIndex: Int { elements.count }

        @inlinable
        public subscript(position: Int) -> Value { SortedMap.value(at: position, in: elements) }
    }
}

extension SortedMap.Keys: Sendable where Key: Sendable, Value: Sendable {}
extension SortedMap.Values: Sendable where Key: Sendable, Value: Sendable {}

extension SortedMap.Keys: CustomStringConvertible {
    public var description: String { Array(self).description }
}

extension SortedMap.Values: CustomStringConvertible {
    public var description: String { Array(self).description }
}
