/// Delete rules, applied once every operation of the transaction did, to the relationships
/// as the transaction leaves them: cascade, then deny, then nullify. No pointer is left at a
/// deleted model, whatever the rules say.
extension SaveDraft {
    mutating func applyDeleteRules() throws(StoreError) {
        guard !explicitDeletions.isEmpty else { return }
        let index = PointerIndex(models)
        var deleted = Set(explicitDeletions)
        var deletionOrder: [ModelID] = []
        for root in explicitDeletions {
            let group = cascade(from: root, index: index, deleted: &deleted)
            if !group.isEmpty {
                cascades[root] = group
                cascaded.formUnion(group)
            }
            deletionOrder.append(root)
            deletionOrder.append(contentsOf: group)
        }
        precondition(deletionOrder.count == deleted.count, "a model was deleted twice")
        try checkDenials(of: deletionOrder, index: index)
        clearPointers(to: deleted, from: deletionOrder, index: index)
    }

    /// Deletes what `root` cascades to, recursively, depth first in the order of the
    /// relationships' declaration and then of identifiers. Returns the models deleted.
    private mutating func cascade(
        from root: ModelID,
        index: PointerIndex,
        deleted: inout Set<ModelID>
    ) -> [ModelID] {
        var group: [ModelID] = []
        var stack = [root]
        // Each model is pushed once at most (it is marked deleted when pushed): cycles end.
        let stepsMax = models.count + 1
        var steps = 0
        while let id = stack.popLast() {
            steps += 1
            precondition(steps <= stepsMax, "the cascade from \(root) does not end")
            if id != root {
                tombstones[id] = remove(id)
                group.append(id)
            }
            guard let model = tombstones[id] else { preconditionFailure("no tombstone of \(id)") }
            var reached: [ModelID] = []
            for relationship in entity(of: model).relationships
            where relationship.deleteRule == .cascade {
                for target in related(model, through: relationship, index: index)
                where deleted.insert(target).inserted {
                    reached.append(target)
                }
            }
            stack.append(contentsOf: reached.reversed())
        }
        return group
    }

    /// A `deny` rule refuses the transaction while a model it relates to stays.
    private func checkDenials(of deletionOrder: [ModelID], index: PointerIndex) throws(StoreError) {
        for id in deletionOrder {
            guard let model = tombstones[id] else { preconditionFailure("no tombstone of \(id)") }
            for relationship in entity(of: model).relationships
            where relationship.deleteRule == .deny
                && !related(model, through: relationship, index: index).isEmpty {
                throw .deleteDenied(id, relationship: relationship.name)
            }
        }
    }

    /// Nullify: every remaining model loses its pointers at deleted ones, in the order of
    /// identifiers. This covers the `nullify` rules and the pointers no rule names.
    private mutating func clearPointers(
        to deleted: Set<ModelID>,
        from deletionOrder: [ModelID],
        index: PointerIndex
    ) {
        var sources = Set<ModelID>()
        for id in deletionOrder {
            for pointer in index.pointers(at: id) where models.contains(pointer.source) {
                sources.insert(pointer.source)
            }
        }
        for source in sources.sorted() {
            guard let model = models[source] else { preconditionFailure("\(source) vanished") }
            write(model.removingPointers(to: deleted))
        }
    }

    /// The remaining models a relationship of a deleted model relates to, sorted.
    private func related(
        _ model: Model,
        through relationship: RelationshipDescription,
        index: PointerIndex
    ) -> [ModelID] {
        let ids: [ModelID]
        if !relationship.isToMany {
            ids = model.toOne[relationship.name].map { [$0] } ?? []
        } else if schema.isDerived(relationship, in: model.entity),
            let inverse = schema.inverse(of: relationship, in: model.entity) {
            ids = index.sources(
                pointingAt: model.id, through: inverse.name, of: relationship.destination
            )
        } else {
            ids = model.toMany[relationship.name] ?? []
        }
        return ids.filter { models.contains($0) }
    }
}
