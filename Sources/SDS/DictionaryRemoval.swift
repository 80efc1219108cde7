extension Dictionary {
    /// Removes the key's entry, without hashing the key when the map is empty: a removal
    /// (`map[key] = nil`) hashes the key even then, and most of the sync data's maps keyed
    /// by record name are empty while a download writes nil into them for every record
    /// (hashing a long record name costs more than the rest of the removal).
    mutating func removeEntry(at key: Key) {
        guard !isEmpty else { return }
        removeValue(forKey: key)
    }

    /// Sets the key's entry, or removes it (`removeEntry(at:)`) for nil.
    mutating func setEntry(_ value: Value?, at key: Key) {
        if let value { self[key] = value } else { removeEntry(at: key) }
    }
}
