extension Dictionary {
    /// What `read` finds in the value stored for `key`, read where it is stored; nil when
    /// there is none.
    ///
    /// `states[key]?.field` first copies the whole value out of the dictionary: every reference an
    /// account's or a zone's state holds retained, then released (the cloud checks an account's
    /// throttle and busy windows, and whether a zone is live, on every request). This goes through
    /// the storage's `_modify` accessor, which yields the stored value itself; `read` must not
    /// change it, and the dictionary is left as it was (its uniqueness check copies nothing, the
    /// cloud's dictionaries having a single owner).
    @inlinable
    mutating func peek<T>(_ key: Key, _ read: (inout Value) -> T) -> T? {
        guard let index = index(forKey: key) else { return nil }
        return read(&values[index])
    }

    /// `peek` at an index already found (a key looked up once for several accesses).
    @inlinable
    mutating func peek<T>(at index: Index, _ read: (inout Value) -> T) -> T {
        read(&values[index])
    }
}

extension SortedMap {
    /// `Dictionary.peek` for a sorted map: what `read` finds in the value stored for `key`,
    /// read where it is stored; nil when there is none.
    @inlinable
    func peek<T>(_ key: Key, _ read: (borrowing Value) -> T) -> T? {
        readValue(forKey: key, read)
    }

    /// Changes the value stored for `key` where it is stored; nothing when there is none.
    ///
    /// `map[key]?.change()` goes through the key subscript's `_modify`, which takes the pair
    /// out of the array and puts it back (the pairs after it moved twice) in a coroutine
    /// whose frame, for a value as large as an account's state, is allocated (the owner's
    /// database feed is noted on every stored change).
    @inlinable
    mutating func change(_ key: Key, _ body: (inout Value) -> Void) {
        _ = modifyValue(forKey: key, body)
    }
}
