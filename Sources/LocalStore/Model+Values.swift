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
    func changedKeys(since before: Model) -> [String] {
        let attributes = Set(values.keys).union(before.values.keys)
            .filter { values[$0] != before.values[$0] }
        let toOnes = Set(toOne.keys).union(before.toOne.keys)
            .filter { toOne[$0] != before.toOne[$0] }
        let toManys = Set(toMany.keys).union(before.toMany.keys)
            .filter { toMany[$0] != before.toMany[$0] }
        return attributes.union(toOnes).union(toManys).sorted()
    }
}
