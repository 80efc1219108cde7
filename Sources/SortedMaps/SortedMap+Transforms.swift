/// The transforms that return a map, as `Dictionary`'s do; each keeps the order, so none
/// sorts again.
extension SortedMap {
    /// The pairs for which `isIncluded` is true.
    @inlinable
    public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> SortedMap {
        var kept = ContiguousArray<Element>()
        for element in elements where try isIncluded(element) { kept.append(element) }
        return SortedMap(sortedElements: kept)
    }

    /// The same keys with their values transformed.
    @inlinable
    public func mapValues<T>(_ transform: (Value) throws -> T) rethrows -> SortedMap<Key, T> {
        var mapped = ContiguousArray<SortedMap<Key, T>.Element>()
        mapped.reserveCapacity(elements.count)
        for element in elements { mapped.append((element.key, try transform(element.value))) }
        return SortedMap<Key, T>(sortedElements: mapped)
    }

    /// The keys whose transformed value is not nil, with that value.
    @inlinable
    public func compactMapValues<T>(
        _ transform: (Value) throws -> T?
    ) rethrows -> SortedMap<Key, T> {
        var mapped = ContiguousArray<SortedMap<Key, T>.Element>()
        for element in elements {
            if let value = try transform(element.value) { mapped.append((element.key, value)) }
        }
        return SortedMap<Key, T>(sortedElements: mapped)
    }

    /// A map of pairs taken in order from a map (sorted and unique already, not checked).
    @inlinable
    internal init(sortedElements: ContiguousArray<Element>) {
        elements = sortedElements
    }
}
