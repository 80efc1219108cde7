extension Model {
    /// The value of an attribute (nil when it has none).
    public func value(of attribute: String) -> AttributeValue? {
        values[attribute]
    }

    /// The model a to-one relationship points at (nil when it points at nothing).
    public func target(of relationship: String) -> ModelID? {
        toOne[relationship]
    }

    /// Whether each attribute of `filter` has that value.
    func matches(_ filter: [String: AttributeValue]) -> Bool {
        filter.allSatisfy { values[$0.key] == $0.value }
    }

    /// The model without its pointers at `deleted` models, so that none dangles.
    func removingPointers(to deleted: Set<ModelID>) -> Model {
        var model = self
        model.toOne = toOne.filter { !deleted.contains($0.value) }
        model.toMany = toMany.compactMapValues { members in
            let kept = members.filter { !deleted.contains($0) }
            return kept.isEmpty ? nil : kept
        }
        return model
    }

    /// The names of the properties whose values differ between two versions of a model,
    /// sorted: attributes, to-one relationships and stored to-many relationships.
    ///
    /// Collected from each map and its earlier version, then sorted once (a name in several
    /// maps counted once), not through a set of every key of each pair of maps: that would
    /// build six sets and their unions per updated model of every save.
    func changedKeys(since before: Model) -> [String] {
        // The first key is held apart: most updates change one, and a list of one made as a
        // literal is allocated in specialized code (a first append to an empty list went
        // through the generic growth path). The others are listed, and all sorted below.
        var first: String?
        var keys: [String] = []
        // Both maps walked side by side in key order, so that no key of either map is looked
        // up in the other (comparing it with every key before it).
        values.forEachKeyDiffering(from: before.values) {
            if case .none = first { first = $0 } else { keys.append($0) }
        }
        toOne.forEachKeyDiffering(from: before.toOne) {
            if case .none = first { first = $0 } else { keys.append($0) }
        }
        toMany.forEachKeyDiffering(from: before.toMany) {
            if case .none = first { first = $0 } else { keys.append($0) }
        }
        guard let first else { return [] }
        // A list of one is sorted and unique already.
        guard !keys.isEmpty else { return [first] }
        keys.append(first)
        keys.sort()
        // Most updates change keys of one map only: no name twice, no second array.
        guard keys.indices.dropFirst().contains(where: { keys[$0 - 1] == keys[$0] }) else {
            return keys
        }
        var unique: [String] = []
        unique.reserveCapacity(keys.count)
        for key in keys where unique.last != key { unique.append(key) }
        return unique
    }
}
