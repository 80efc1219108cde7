/// A map from a few keys to their values, held as one array of pairs sorted by key.
///
/// A model's attribute values and a record's fields hold about two keys each, and a `Dictionary` of
/// two keys takes four buckets behind a 64-byte header, twice the room of the same two pairs in one
/// array. It answers like a `Dictionary` (subscripts, `keys`, `values`, `merge`, `filter`,
/// `mapValues`, literals, equality), but walks its pairs in key order: no hash order can reach an
/// output through it, and nothing is hashed to find a key. Up to `linearScanLimit` keys are
/// scanned; beyond, a binary search narrows to that many first. Inserting and removing move the
/// pairs after the key, which is what a map of a few keys can afford.
public struct SortedMap<Key: Comparable, Value> {
    public typealias Element = (key: Key, value: Value)

    /// The pairs, sorted by key, each key once.
    @usableFromInline
    internal var elements: ContiguousArray<Element>

    /// An empty map.
    @inlinable
    public init() {
        elements = []
    }

    /// An empty map with room for `minimumCapacity` pairs, allocated once.
    @inlinable
    public init(minimumCapacity: Int) {
        elements = []
        elements.reserveCapacity(minimumCapacity)
    }

    /// A map of pairs already sorted by key, each key once (checked).
    @inlinable
    internal init(sortedUniqueElements: ContiguousArray<Element>) {
        elements = sortedUniqueElements
        precondition(Self.isSortedAndUnique(elements), "pairs not sorted by unique keys")
    }

    /// Keys up to this many are found by comparing each in turn; a binary search narrows
    /// longer maps to this many first.
    @inlinable
    internal static var linearScanLimit: Int { 8 }

    /// The number of pairs the map can hold without allocating again.
    @inlinable
    public var capacity: Int { elements.capacity }

    /// Makes room for `minimumCapacity` pairs in one allocation.
    @inlinable
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        elements.reserveCapacity(minimumCapacity)
    }

    /// A copy of the map with room for `minimumCapacity` pairs, in one allocation, its pairs
    /// copied one by one in code specialized for the map's types: room reserved in a copy
    /// that still shares its pairs copied them through the runtime's generic array copy.
    @inlinable
    public func copy(reservingCapacity minimumCapacity: Int) -> SortedMap {
        var map = SortedMap(minimumCapacity: Swift.max(minimumCapacity, elements.count))
        elements.withUnsafeBufferPointer { source in
            for offset in source.indices { map.elements.append(source[offset]) }
        }
        return map
    }

    /// Where `key` is, or where it would go: the first pair whose key is not below it.
    @inlinable
    internal func search(_ key: Key) -> (found: Bool, offset: Int) {
        Self.search(key, in: elements)
    }

    /// `search` over an array of pairs.
    ///
    /// Each key is read through a pointer to the key alone (a pair's first element, at its
    /// start): reading `buffer[i].key`, and even `elements[i].key` once specialized for a
    /// large value in another module (the cloud's account states), copies the whole pair
    /// compared, every reference of the value retained and released.
    @inlinable
    internal static func search(
        _ key: Key, in elements: ContiguousArray<Element>
    ) -> (found: Bool, offset: Int) {
        elements.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return (false, 0) }
            let stride = MemoryLayout<Element>.stride
            // Memory bound to a tuple is bound to its elements at their offsets; the first
            // element's is zero.
            func keyAt(_ offset: Int) -> UnsafePointer<Key> {
                (UnsafeRawPointer(base) + offset * stride).assumingMemoryBound(to: Key.self)
            }
            var low = 0
            var high = buffer.count
            while high - low > Self.linearScanLimit {
                let middle = low + (high - low) / 2
                if keyAt(middle).pointee < key { low = middle + 1 } else { high = middle }
            }
            while low < high, keyAt(low).pointee < key { low += 1 }
            return (low < buffer.count && keyAt(low).pointee == key, low)
        }
    }

    /// The key of the pair at `offset`, read where it is stored.
    ///
    /// `elements[offset].key` copies the whole pair (every reference of the value retained
    /// and released) once specialized for a large value in another module: a caller walking
    /// the keys of a map of account states would copy every state.
    @inlinable
    internal static func key(at offset: Int, in elements: ContiguousArray<Element>) -> Key {
        elements.withUnsafeBufferPointer { buffer in
            precondition(offset >= 0 && offset < buffer.count, "Index out of range")
            // Memory bound to a tuple is bound to its elements at their offsets; the first
            // element's is zero.
            let address = UnsafeRawPointer(buffer.baseAddress.unsafelyUnwrapped)
                + offset * MemoryLayout<Element>.stride
            return address.assumingMemoryBound(to: Key.self).pointee
        }
    }

    /// The value of the pair at `offset`, read where it is stored (see `key(at:in:)`).
    @inlinable
    internal static func value(at offset: Int, in elements: ContiguousArray<Element>) -> Value {
        elements.withUnsafeBufferPointer { buffer in
            precondition(offset >= 0 && offset < buffer.count, "Index out of range")
            let address = UnsafeRawPointer(buffer.baseAddress.unsafelyUnwrapped)
                + offset * MemoryLayout<Element>.stride + valueOffset
            return address.assumingMemoryBound(to: Value.self).pointee
        }
    }

    /// Where a pair's value starts in it: after its key, at the value's alignment (a
    /// tuple's layout).
    @inlinable
    internal static var valueOffset: Int {
        let alignment = MemoryLayout<Value>.alignment
        return (MemoryLayout<Key>.size + alignment - 1) / alignment * alignment
    }

    /// Puts `pair` at `offset`, moving the pairs from there one place up.
    ///
    /// `ContiguousArray.insert(_:at:)` goes through the generic `replaceSubrange` (a collection of
    /// one, its count and copy checked at run time), for every new key of the store's attribute
    /// writes and a save's changes. Appending grows the array as an insert would; the new pair then
    /// moves down to its place, each step a swap of two pairs in the buffer (moved, nothing
    /// retained).
    @inlinable
    internal mutating func insertPair(_ pair: __owned Element, at offset: Int) {
        elements.append(pair)
        elements.withUnsafeMutableBufferPointer { buffer in
            var position = buffer.count - 1
            while position > offset {
                buffer.swapAt(position, position - 1)
                position -= 1
            }
        }
    }

    @inlinable
    internal static func isSortedAndUnique(_ elements: ContiguousArray<Element>) -> Bool {
        var offset = 1
        while offset < elements.count {
            guard elements[offset - 1].key < elements[offset].key else { return false }
            offset += 1
        }
        return true
    }
}

extension SortedMap {
    /// The value stored for `key`; setting nil removes the pair.
    @inlinable
    public subscript(key: Key) -> Value? {
        get {
            let (found, offset) = search(key)
            return found ? Self.value(at: offset, in: elements) : nil
        }
        set {
            let (found, offset) = search(key)
            // Not a switch over `(found, newValue)`: the tuple held a copy of the value.
            if let value = newValue {
                if found {
                    elements[offset].value = value
                } else {
                    insertPair((key, value), at: offset)
                }
            } else if found {
                elements.remove(at: offset)
            }
        }
        _modify {
            let (found, offset) = search(key)
            // The pair leaves the array while the caller changes its value, so a value held
            // elsewhere once (an array of members) is changed in place, not copied; it goes
            // back under the key it had (a key equal to another spelling of it keeps its own,
            // as in a `Dictionary`).
            let removed = found ? elements.remove(at: offset) : nil
            var value = removed?.value
            defer {
                if let value { insertPair((removed?.key ?? key, value), at: offset) }
            }
            yield &value
        }
    }

    /// The value stored for `key`, or `defaultValue()` (stored first when the value is
    /// changed through this subscript).
    @inlinable
    public subscript(
        key: Key, default defaultValue: @autoclosure () -> Value
    ) -> Value {
        get {
            let (found, offset) = search(key)
            return found ? Self.value(at: offset, in: elements) : defaultValue()
        }
        _modify {
            let (found, offset) = search(key)
            if !found { insertPair((key, defaultValue()), at: offset) }
            yield &elements[offset].value
        }
    }

    /// Stores `value` for `key`; returns the value it replaced, if any.
    @inlinable
    @discardableResult
    public mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        let (found, offset) = search(key)
        guard found else {
            insertPair((key, value), at: offset)
            return nil
        }
        let old = elements[offset].value
        elements[offset].value = value
        return old
    }

    /// Removes the pair of `key`; returns its value, if it had one.
    @inlinable
    @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        // A map that holds nothing is not searched (nor made unique).
        guard !elements.isEmpty else { return nil }
        let (found, offset) = search(key)
        return found ? elements.remove(at: offset).value : nil
    }

    /// Calls `body` with the value stored for `key`, changed in place; nil (and `body` not
    /// called) when there is none.
    ///
    /// Through the key subscript, a value changed in place leaves the array for the change
    /// and goes back (the subscript must yield an optional); a value read through it is a
    /// copy. This reaches the stored value itself, to read a field of a large value or change
    /// it without moving the pairs after it.
    @inlinable
    public mutating func modifyValue<T>(
        forKey key: Key, _ body: (inout Value) throws -> T
    ) rethrows -> T? {
        let (found, offset) = search(key)
        guard found else { return nil }
        return try body(&elements[offset].value)
    }

    /// What `read` finds in the value stored for `key`, read where it is stored (no copy of
    /// the value); nil (and `read` not called) when there is none.
    @inlinable
    public func readValue<T>(
        forKey key: Key, _ read: (borrowing Value) throws -> T
    ) rethrows -> T? {
        let (found, offset) = search(key)
        guard found else { return nil }
        return try elements.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { preconditionFailure("a found pair") }
            // A pair's value follows its key at the value's alignment (a tuple's layout).
            let address = UnsafeRawPointer(base) + offset * MemoryLayout<Element>.stride
                + Self.valueOffset
            return try read(address.assumingMemoryBound(to: Value.self).pointee)
        }
    }

    /// Removes every pair.
    @inlinable
    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        elements.removeAll(keepingCapacity: keepCapacity)
    }

    /// The position of `key`'s pair, if it has one.
    @inlinable
    public func index(forKey key: Key) -> Index? {
        let (found, offset) = search(key)
        return found ? Index(offset: offset) : nil
    }

    /// Removes the pair at `index` and returns it.
    @inlinable
    @discardableResult
    public mutating func remove(at index: Index) -> Element {
        elements.remove(at: index.offset)
    }
}

extension SortedMap: Sendable where Key: Sendable, Value: Sendable {}
