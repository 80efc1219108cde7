/// Equality and hashing read the pairs in key order: two maps of the same pairs are laid out
/// alike, whatever order they were built in.
extension SortedMap: Equatable where Value: Equatable {
    @inlinable
    public static func == (lhs: SortedMap, rhs: SortedMap) -> Bool {
        guard lhs.elements.count == rhs.elements.count else { return false }
        // Compared in place, field by field: no pair copied.
        for offset in lhs.elements.indices {
            guard lhs.elements[offset].key == rhs.elements[offset].key,
                lhs.elements[offset].value == rhs.elements[offset].value
            else { return false }
        }
        return true
    }
}

extension SortedMap: Hashable where Key: Hashable, Value: Hashable {
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(elements.count)
        for offset in elements.indices {
            hasher.combine(elements[offset].key)
            hasher.combine(elements[offset].value)
        }
    }
}

/// Printed as a `Dictionary` prints (`["a": 1, "b": 2]`, `[:]` when empty), in key order.
extension SortedMap: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String {
        guard !elements.isEmpty else { return "[:]" }
        let pairs = elements.map {
            String(reflecting: $0.key) + ": " + String(reflecting: $0.value)
        }
        return "[" + pairs.joined(separator: ", ") + "]"
    }

    public var debugDescription: String { description }
}
