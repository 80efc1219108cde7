import CloudSim

/// A table of values by record name, asked by name and walked only through its sorted
/// `names`: the sync data's tables of pending deletions, unanswered uploads, parents,
/// uploaded moves and records kept aside.
///
/// As `[String: Value]`, each lookup would hash the name with `Hasher` (SipHash over every byte),
/// and so would a removal from an empty table, once or twice for every record a download stores and
/// every answer to an upload. The names are filed as `HashedRecordName`s (`RecordNameHash`, eight
/// bytes at a time, mixed into the table by `TableHash`), and an empty table answers without
/// hashing. Nothing is read in bucket order: `names` come sorted.
public struct RecordNameMap<Value: Hashable & Sendable>: Hashable, Sendable,
    ExpressibleByDictionaryLiteral
{
    private var entries: [HashedRecordName: Value]

    public init() { entries = Dictionary() }

    public init(dictionaryLiteral elements: (String, Value)...) {
        entries = Dictionary(minimumCapacity: elements.count)
        for (name, value) in elements { // tidy: ordered (the literal's list)
            entries[HashedRecordName(name)] = value
        }
    }

    public var isEmpty: Bool { entries.isEmpty }

    public var count: Int { entries.count }

    /// The names, sorted.
    public var names: [String] {
        // Mostly empty: no array mapped and sorted for nothing.
        if entries.isEmpty { return [] }
        return entries.keys.map(\.name).sorted() // tidy: ordered (sorted)
    }

    /// The value of a record name; setting nil removes its entry.
    public subscript(name: String) -> Value? {
        get { entries.isEmpty ? nil : entries[HashedRecordName(name)] }
        set {
            if let newValue {
                entries[HashedRecordName(name)] = newValue
            } else if !entries.isEmpty {
                entries[HashedRecordName(name)] = nil
            }
        }
    }

    /// Changes the value of a record name in place, `defaultValue` stored first when it has
    /// none. (A function, not a `_modify` subscript: nested in the sync data's accessor, that
    /// coroutine's frame was allocated on the heap.)
    public mutating func withValue<Result>(
        of name: String, default defaultValue: () -> Value,
        _ body: (inout Value) -> Result
    ) -> Result {
        body(&entries[HashedRecordName(name), default: defaultValue()])
    }

    /// Stores `value` at a name without an entry and answers nil; at a name with one, changes
    /// that entry in place with `body` and answers its result. The name's bytes are hashed
    /// once (the second probe compares the kept hash): unlike `withValue`, no state shared by
    /// two closures tells the cases apart, which the compiler kept in a heap box per call.
    public mutating func insertOrChange<Result>(
        _ value: @autoclosure () -> Value, at name: String, _ body: (inout Value) -> Result
    ) -> Result? {
        insertOrChange(value(), at: HashedRecordName(name), body)
    }

    /// `insertOrChange` at a name the caller hashed already.
    public mutating func insertOrChange<Result>(
        _ value: @autoclosure () -> Value, at key: HashedRecordName,
        _ body: (inout Value) -> Result
    ) -> Result? {
        if let index = entries.index(forKey: key) { return body(&entries.values[index]) }
        entries[key] = value()
        return nil
    }

    /// Removes the name's entry and returns its value (nil, without hashing, when empty).
    @discardableResult
    public mutating func removeValue(forKey name: String) -> Value? {
        entries.isEmpty ? nil : entries.removeValue(forKey: HashedRecordName(name))
    }

    /// Removes the name's entry, if any. (An empty table answers at once: the nil a removal
    /// returns was still destroyed, through an outlined call, for every absent entry.)
    public mutating func removeEntry(at name: String) {
        guard !entries.isEmpty else { return }
        entries.removeValue(forKey: HashedRecordName(name))
    }

    /// Sets the name's entry, or removes it for nil.
    public mutating func setEntry(_ value: Value?, at name: String) {
        self[name] = value
    }
}
