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
    /// maps counted once): building a set of every key of each pair of maps cost six sets and
    /// their unions per updated model of every save (issue 19).
    func changedKeys(since before: Model) -> [String] {
        var keys: [String] = []
        func collect<Value: Equatable>(
            _ after: SortedMap<String, Value>, _ earlier: SortedMap<String, Value>
        ) {
            for (key, value) in after where earlier[key] != value { // tidy: ordered key order
                keys.append(key)
            }
            for key in earlier.keys where after[key] == nil { // tidy: ordered key order
                keys.append(key)
            }
        }
        collect(values, before.values)
        collect(toOne, before.toOne)
        collect(toMany, before.toMany)
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
