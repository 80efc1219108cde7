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
        guard let destination = self.entity(named: relationship.destination) else { return nil }
        if let name = relationship.inverse {
            guard let inverse = destination.relationship(named: name),
                inverse.destination == entity
            else { return nil }
            return inverse
        }
        return destination.relationships.first {
            $0.inverse == relationship.name && $0.destination == entity
        }
    }

    /// Whether a to-many relationship is derived from its to-one inverse rather than stored.
    public func isDerived(_ relationship: RelationshipDescription, in entity: String) -> Bool {
        guard relationship.isToMany, let inverse = inverse(of: relationship, in: entity) else {
            return false
        }
        return !inverse.isToMany
    }
}
