/// Building a map from pairs, as a `Dictionary` is built: literals, unique pairs, pairs with a
/// rule for repeated keys, a dictionary.
extension SortedMap: ExpressibleByDictionaryLiteral {
    /// A map of the literal's pairs; a key written twice traps, as in a `Dictionary` literal.
    @inlinable
    public init(dictionaryLiteral pairs: (Key, Value)...) {
        self.init(uniqueKeysWithValues: pairs)
    }

    /// A map of `pairs`, whose keys must be unique (a repeated key traps).
    @inlinable
    public init<S: Sequence>(uniqueKeysWithValues pairs: S) where S.Element == (Key, Value) {
        var elements = ContiguousArray<Element>()
        elements.reserveCapacity(pairs.underestimatedCount)
        for (key, value) in pairs { elements.append((key, value)) } // tidy: ordered sorted next
        elements.sort { $0.key < $1.key }
        var offset = 1
        while offset < elements.count {
            precondition(
                elements[offset - 1].key < elements[offset].key,
                "duplicate values for key '\(elements[offset].key)'")
            offset += 1
        }
        self.elements = elements
    }

    /// A map of `pairs`, combining the values of a repeated key with `combine` (the value
    /// stored so far first, as `Dictionary.init(_:uniquingKeysWith:)` does).
    @inlinable
    public init<S: Sequence>(
        _ pairs: S, uniquingKeysWith combine: (Value, Value) throws -> Value
    ) rethrows where S.Element == (Key, Value) {
        self.init()
        try merge(pairs, uniquingKeysWith: combine)
    }
}

extension SortedMap where Key: Hashable {
    /// The pairs of a dictionary, in key order.
    @inlinable
    public init(_ dictionary: [Key: Value]) {
        self.init(uniqueKeysWithValues: dictionary.lazy.map { ($0.key, $0.value) })
    }

    /// The same pairs as a dictionary.
    @inlinable
    public var dictionary: [Key: Value] {
        var dictionary: [Key: Value] = [:]
        dictionary.reserveCapacity(elements.count)
        for element in elements { dictionary[element.key] = element.value }
        return dictionary
    }
}

extension SortedMap {
    /// Adds the pairs of `other`, combining the values of a key both hold with `combine` (this
    /// map's value first).
    @inlinable
    public mutating func merge<S: Sequence>(
        _ other: S, uniquingKeysWith combine: (Value, Value) throws -> Value
    ) rethrows where S.Element == (Key, Value) {
        for (key, value) in other { // tidy: ordered each key lands at its place in the order
            let (found, offset) = search(key)
            if found {
                elements[offset].value = try combine(elements[offset].value, value)
            } else {
                insertPair((key, value), at: offset)
            }
        }
    }

    /// Adds the pairs of `other`, combining the values of a key both hold with `combine`.
    @inlinable
    public mutating func merge(
        _ other: SortedMap, uniquingKeysWith combine: (Value, Value) throws -> Value
    ) rethrows {
        try merge(other.lazy.map { ($0.key, $0.value) }, uniquingKeysWith: combine)
    }

    /// This map with the pairs of `other` added (see `merge`).
    @inlinable
    public func merging<S: Sequence>(
        _ other: S, uniquingKeysWith combine: (Value, Value) throws -> Value
    ) rethrows -> SortedMap where S.Element == (Key, Value) {
        var merged = self
        try merged.merge(other, uniquingKeysWith: combine)
        return merged
    }

    /// This map with the pairs of `other` added (see `merge`).
    @inlinable
    public func merging(
        _ other: SortedMap, uniquingKeysWith combine: (Value, Value) throws -> Value
    ) rethrows -> SortedMap {
        var merged = self
        try merged.merge(other, uniquingKeysWith: combine)
        return merged
    }
}

extension SortedMap where Key: Hashable {
    /// Adds the pairs of a dictionary, combining the values of a key both hold with `combine`.
    @inlinable
    public mutating func merge(
        _ other: [Key: Value], uniquingKeysWith combine: (Value, Value) throws -> Value
    ) rethrows {
        try merge(other.lazy.map { ($0.key, $0.value) }, uniquingKeysWith: combine)
    }

    /// This map with the pairs of a dictionary added (see `merge`).
    @inlinable
    public func merging(
        _ other: [Key: Value], uniquingKeysWith combine: (Value, Value) throws -> Value
    ) rethrows -> SortedMap {
        var merged = self
        try merged.merge(other, uniquingKeysWith: combine)
        return merged
    }
}
