/// An operation's values in the order of their names, read where the operation's map holds
/// them: each name with its position in the map, sorted in memory on the stack. (A sorted
/// array of the pairs was allocated, and every pair copied into it, on each save of several
/// values.)
struct ValuesByName: Sequence {
    typealias Values = [String: PropertyValue]
    typealias Entry = (key: String, position: Values.Index)

    private let values: Values
    private let entries: UnsafeMutableBufferPointer<Entry>

    /// Calls `body` with the values of `values` in the order of their names.
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
                values: values, entries: UnsafeMutableBufferPointer(start: base, count: count)))
        }
    }

    private init(values: Values, entries: UnsafeMutableBufferPointer<Entry>) {
        self.values = values
        self.entries = entries
    }

    /// The names alone, in order.
    var names: LazyMapSequence<UnsafeMutableBufferPointer<Entry>, String> {
        entries.lazy.map { $0.key }
    }

    func makeIterator() -> Iterator {
        Iterator(values: values, entries: entries, offset: 0)
    }

    struct Iterator: IteratorProtocol {
        let values: Values
        let entries: UnsafeMutableBufferPointer<Entry>
        var offset: Int

        mutating func next() -> (key: String, value: PropertyValue)? {
            guard offset < entries.count else { return nil }
            defer { offset += 1 }
            return (key: entries[offset].key, value: values.values[entries[offset].position])
        }
    }
}
