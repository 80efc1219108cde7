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
        var keys: [String] = []
        // Both maps walked side by side in key order, so that no key of either map is looked
        // up in the other (comparing it with every key before it).
        func collect<Value: Equatable>(
            _ after: SortedMap<String, Value>, _ earlier: SortedMap<String, Value>
        ) {
            let afterKeys = after.keys
            let afterValues = after.values
            let earlierKeys = earlier.keys
            let earlierValues = earlier.values
            var other = 0
            for position in afterKeys.indices {
                let key = afterKeys[position]
                // Keys only the earlier version has: removed.
                while other < earlierKeys.count, earlierKeys[other] < key {
                    keys.append(earlierKeys[other])
                    other += 1
                }
                if other < earlierKeys.count, earlierKeys[other] == key {
                    if earlierValues[other] != afterValues[position] { keys.append(key) }
                    other += 1
                } else {
                    keys.append(key)
                }
            }
            while other < earlierKeys.count {
                keys.append(earlierKeys[other])
                other += 1
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
