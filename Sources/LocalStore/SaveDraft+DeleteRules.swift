/// Delete rules, applied once every operation of the transaction did, to the relationships
/// as the transaction leaves them: cascade, then deny, then nullify. No pointer is left at a
/// deleted model, whatever the rules say.
extension SaveDraft {
    mutating func applyDeleteRules() throws(StoreError) {
        guard !explicitDeletions.isEmpty else { return }
        var index = PointerIndex()
        // The models a cascade reached; the explicit deletions are not in it: they left the
        // models before the rules apply, and a cascade reaches only models that remain, so
        // no set of them is built for every deleting save (most cascade to nothing).
        var reached = Set<ModelID>()
        // Each deleted model with its entity, each explicit deletion followed by what it
        // cascaded to: the entity is read once, from the tombstone the cascade reads anyway.
        var deletionOrder: [(id: ModelID, entity: String)] = []
        deletionOrder.reserveCapacity(explicitDeletions.count)
        for root in explicitDeletions {
            let group = cascade(
                from: root, index: &index, reached: &reached, order: &deletionOrder)
            if !group.isEmpty {
                cascades[root] = group
                cascaded.formUnion(group)
            }
        }
        precondition(
            deletionOrder.count == explicitDeletions.count + reached.count,
            "a model was deleted twice")
        try checkDenials(of: deletionOrder, index: &index)
        clearPointers(from: deletionOrder, index: &index)
    }

    /// Deletes what `root` cascades to, recursively, depth first in the order of the
    /// relationships' declaration and then of identifiers. Returns the models deleted; `order`
    /// gets the root and then those models, each with its entity.
    private mutating func cascade(
        from root: ModelID,
        index: inout PointerIndex,
        reached deleted: inout Set<ModelID>,
        order: inout [(id: ModelID, entity: String)]
    ) -> [ModelID] {
        var group: [ModelID] = []
        // The root is taken first without the stack: an array allocated for every deletion,
        // where most cascade to nothing.
        var first: ModelID? = root
        var stack: [ModelID] = []
        // Each model is pushed once at most (it is marked deleted when pushed): cycles end.
        let stepsMax = models.count + 1
        var steps = 0
        while let id = first ?? stack.popLast() {
            first = nil
            steps += 1
            precondition(steps <= stepsMax, "the cascade from \(root) does not end")
            if id != root {
                bury(id)
                group.append(id)
            }
            guard let model = tombstone(of: id) else {
                preconditionFailure("no tombstone of \(id)")
            }
            order.append((id: id, entity: model.entity))
            let relationships = entity(of: model).relationships
            // Most entities cascade nowhere: no walk of their relationships, copying each (by
            // position, so that the test copies none).
            guard
                relationships.indices.contains(where: { relationships[$0].deleteRule == .cascade })
            else { continue }
            var reached: [ModelID] = []
            for relationship in relationships where relationship.deleteRule == .cascade {
                for target in related(model, through: relationship, index: &index)
                where deleted.insert(target).inserted {
                    reached.append(target)
                }
            }
            stack.append(contentsOf: reached.reversed())
        }
        return group
    }

    /// A `deny` rule refuses the transaction while a model it relates to stays.
    private func checkDenials(
        of deletionOrder: [(id: ModelID, entity: String)],
        index: inout PointerIndex
    ) throws(StoreError) {
        for (id, entityName) in deletionOrder {
            guard let relationships = schema.entity(named: entityName)?.relationships else {
                preconditionFailure("\(id) is of undeclared entity '\(entityName)'")
            }
            // The tombstone is read only for an entity with a `deny` rule (most have none).
            guard relationships.indices.contains(where: { relationships[$0].deleteRule == .deny })
            else { continue }
            guard let model = tombstone(of: id) else {
                preconditionFailure("no tombstone of \(id)")
            }
            for relationship in relationships
            where relationship.deleteRule == .deny
                && !related(model, through: relationship, index: &index).isEmpty {
                throw .deleteDenied(id, relationship: relationship.name)
            }
        }
    }

    /// Nullify: every remaining model loses its pointers at deleted ones, in the order of
    /// identifiers. This covers the `nullify` rules and the pointers no rule names.
    private mutating func clearPointers(
        from deletionOrder: [(id: ModelID, entity: String)],
        index: inout PointerIndex
    ) {
        var sources = Set<ModelID>()
        for (id, entity) in deletionOrder {
            for pointer in index.pointers(at: id, of: entity, in: models, schema: schema)
            where models.contains(pointer.source) {
                sources.insert(pointer.source)
            }
        }
        // The set of deleted models only when a model points at one (most deleted models
        // have none pointing at them).
        guard !sources.isEmpty else { return }
        let deleted = Set(deletionOrder.map(\.id))
        for source in sources.sorted() {
            guard let model = models[source] else { preconditionFailure("\(source) vanished") }
            write(model.removingPointers(to: deleted))
        }
    }

    /// The remaining models a relationship of a deleted model relates to, sorted.
    private func related(
        _ model: Model,
        through relationship: RelationshipDescription,
        index: inout PointerIndex
    ) -> [ModelID] {
        let ids: [ModelID]
        if !relationship.isToMany {
            ids = model.toOne[relationship.name].map { [$0] } ?? []
        } else if schema.isDerived(relationship, in: model.entity),
            let inverse = schema.inverse(of: relationship, in: model.entity) {
            ids = index.sources(
                pointingAt: model.id, of: model.entity, through: inverse.name,
                of: relationship.destination, in: models, schema: schema
            )
        } else {
            ids = model.toMany[relationship.name] ?? []
        }
        return ids.filter { models.contains($0) }
    }
}
