extension Schema {
    /// The relationship that points back: the one `relationship` names as its inverse, or
    /// else the one of the destination entity that names `relationship` as its inverse (the
    /// scenario format writes `inverse(...)` on the to-many side only). Nil when there is none
    /// or the named one does not point back at `entity`.
    ///
    /// A to-many relationship whose inverse is to-one is derived from that to-one side and
    /// not stored; every other relationship is stored on its model.
    public func inverse(
        of relationship: RelationshipDescription,
        in entity: String
    ) -> RelationshipDescription? {
        guard let (destination, index) = inversePosition(of: relationship, in: entity) else {
            return nil
        }
        return entities[destination].relationships[index]
    }

    /// Whether a to-many relationship is derived from its to-one inverse rather than stored.
    public func isDerived(_ relationship: RelationshipDescription, in entity: String) -> Bool {
        guard relationship.isToMany,
            let (destination, index) = inversePosition(of: relationship, in: entity)
        else { return false }
        return !entities[destination].relationships[index].isToMany
    }

    /// Where `inverse(of:in:)` finds the relationship that points back: the positions of its
    /// entity and of it among that entity's relationships.
    ///
    /// By position: finding it through `entity(named:)` and `relationship(named:)` would copy
    /// the destination entity and the inverse out to read one flag of it, and every save's
    /// pointer lookup asks `isDerived` of each relationship at an entity.
    private func inversePosition(
        of relationship: RelationshipDescription,
        in entity: String
    ) -> (entity: Int, relationship: Int)? {
        guard let destination = entities.firstIndex(where: { $0.name == relationship.destination })
        else { return nil }
        let relationships = entities[destination].relationships
        let index: Int?
        if let name = relationship.inverse {
            index = relationships.firstIndex { $0.name == name }
            guard let index, relationships[index].destination == entity else { return nil }
        } else {
            index = relationships.firstIndex {
                $0.inverse == relationship.name && $0.destination == entity
            }
        }
        return index.map { (destination, $0) }
    }
}

extension Schema {
    /// Whether a stored pointer can point at a model of `entity`: some relationship has it as
    /// its destination and is stored (not a to-many derived from its inverse). Every save
    /// checks that a target is of its relationship's destination, so a model of an entity
    /// that no stored relationship reaches has no pointer at it.
    func isPointedAt(_ entity: String) -> Bool {
        // By position: walking the descriptions copied each one out.
        for source in entities.indices {
            let relationships = entities[source].relationships
            for index in relationships.indices
            where relationships[index].destination == entity
                && !isDerived(relationships[index], in: entities[source].name) {
                return true
            }
        }
        return false
    }
}
