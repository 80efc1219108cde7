/// An operation's values in the order of their names, read where the operation's map holds
/// them: each name with its position in the map, sorted in memory on the stack. (A sorted
/// array of the pairs was allocated, and every pair copied into it, on each save of several
/// values.)
struct ValuesByName: Sequence {
    typealias Values = [String: PropertyValue]
    typealias Entry = (key: String, position: Values.Index)

    /// Up to this many names, `withSorted` (each inserted in order as it is read, which
    /// grows with the square of the count); more, `withManySorted`.
    static let insertedInOrderAtMost = 16

    private let values: Values
    private let entries: UnsafeBufferPointer<Entry>

    /// Calls `body` with the values of `values` in the order of their names (a few:
    /// `insertedInOrderAtMost`).
    static func withSorted<Result, Failure: Error>(
        _ values: Values, _ body: (ValuesByName) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withUnsafeTemporaryAllocation(of: Entry.self, capacity: values.count) {
            buffer throws(Failure) -> Result in
            let base = buffer.baseAddress.unsafelyUnwrapped
            var count = 0
            var position = values.startIndex
            while position != values.endIndex {
                // Inserted in order: the names are few, and distinct (a map's keys).
                (base + count).initialize(to: (key: values.keys[position], position: position))
                var place = count
                while place > 0 && base[place].key < base[place - 1].key {
                    buffer.swapAt(place, place - 1)
                    place -= 1
                }
                count += 1
                values.formIndex(after: &position)
            }
            // Each name dropped by a move: `deinitialize(count:)` went through the runtime's
            // generic array destroy.
            defer { for offset in 0..<count { _ = (base + offset).move() } }
            return try body(ValuesByName(
                values: values, entries: UnsafeBufferPointer(start: base, count: count)))
        }
    }

    /// `withSorted` of more names than are inserted in order, sorted in an array (the names
    /// are distinct, a map's keys: the order is the same).
    @inline(never)
    static func withManySorted<Result, Failure: Error>(
        _ values: Values, _ body: (ValuesByName) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var entries: [Entry] = []
        entries.reserveCapacity(values.count)
        var position = values.startIndex
        while position != values.endIndex {
            entries.append((key: values.keys[position], position: position))
            values.formIndex(after: &position)
        }
        entries.sort { $0.key < $1.key }
        return try entries.withUnsafeBufferPointer { buffer throws(Failure) -> Result in
            try body(ValuesByName(values: values, entries: buffer))
        }
    }

    private init(values: Values, entries: UnsafeBufferPointer<Entry>) {
        self.values = values
        self.entries = entries
    }

    /// The names alone, in order.
    var names: LazyMapSequence<UnsafeBufferPointer<Entry>, String> {
        entries.lazy.map { $0.key }
    }

    func makeIterator() -> Iterator {
        Iterator(values: values, entries: entries, offset: 0)
    }

    struct Iterator: IteratorProtocol {
        let values: Values
        let entries: UnsafeBufferPointer<Entry>
        var offset: Int

        mutating func next() -> (key: String, value: PropertyValue)? {
            guard offset < entries.count else { return nil }
            defer { offset += 1 }
            return (key: entries[offset].key, value: values.values[entries[offset].position])
        }
    }
}
