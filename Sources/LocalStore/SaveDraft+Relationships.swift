/// Writing relationships, with their inverses kept in step.
///
/// A to-one relationship is stored on its model. A to-many relationship whose inverse is
/// to-one is derived from that inverse (writing it moves the inverse pointers); any other
/// to-many relationship is stored on its model, sorted, on both sides when it has a to-many
/// inverse. A one-to-one pair is stored on both sides.
extension SaveDraft {
    mutating func setRelationship(
        _ relationship: RelationshipDescription,
        to value: PropertyValue,
        on id: ModelID,
        of entity: EntityDescription
    ) throws(StoreError) {
        // The value matched where it is, by the relationship's kind: a switch over a tuple of
        // the two held a copy of the value.
        if !relationship.isToMany {
            guard case .relationship(let target) = value else {
                throw .invalidValue(
                    entity: entity.name, property: relationship.name,
                    reason: "expected one \(relationship.destination) or nil"
                )
            }
            if let target {
                try checkTarget(target, of: relationship, in: entity)
            }
            setToOne(relationship, to: target, on: id, of: entity)
        } else {
            guard case .relationships(let targets) = value else {
                throw .invalidValue(
                    entity: entity.name, property: relationship.name,
                    reason: "expected a list of \(relationship.destination)"
                )
            }
            for target in targets {
                try checkTarget(target, of: relationship, in: entity)
            }
            setToMany(relationship, to: Array(Set(targets)).sorted(), on: id, of: entity)
        }
    }

    /// A target must exist when the operation runs (saved, or inserted by an earlier
    /// operation) and be of the destination entity.
    private func checkTarget(
        _ target: ModelID,
        of relationship: RelationshipDescription,
        in entity: EntityDescription
    ) throws(StoreError) {
        // The entity alone read where the model is stored: `models[target]` copied the model.
        guard let targetEntity = models.entity(of: target) else {
            throw .invalidValue(
                entity: entity.name, property: relationship.name, reason: "no model \(target)"
            )
        }
        guard targetEntity == relationship.destination else {
            throw .invalidValue(
                entity: entity.name, property: relationship.name,
                reason: "\(target) is a \(targetEntity), not a \(relationship.destination)"
            )
        }
    }

    private mutating func setToOne(
        _ relationship: RelationshipDescription,
        to target: ModelID?,
        on id: ModelID,
        of entity: EntityDescription
    ) {
        // The pointers read and changed where the model is stored: a model copied out and
        // written back retained and released each of its references.
        guard models.toOne(of: id)?[relationship.name] != target else { return }
        if let inverse = schema.inverse(of: relationship, in: entity.name), !inverse.isToMany {
            pairOneToOne(relationship, inverse: inverse, source: id, target: target)
        }
        // After the pairing, which may have changed this very model (a self-inverse).
        modify(id) { $0.toOne[relationship.name] = target }
    }

    /// Keeps a one-to-one pair in step: the source's old partner and the target's old partner
    /// lose their pointers, the target points back at the source.
    private mutating func pairOneToOne(
        _ relationship: RelationshipDescription,
        inverse: RelationshipDescription,
        source: ModelID,
        target: ModelID?
    ) {
        if let old = models.toOne(of: source)?[relationship.name] {
            clearPointer(inverse.name, of: old, ifAt: source)
        }
        guard let target else { return }
        if let partner = models.toOne(of: target)?[inverse.name], partner != source {
            clearPointer(relationship.name, of: partner, ifAt: target)
        }
        modify(target) { $0.toOne[inverse.name] = source }
    }

    private mutating func clearPointer(_ name: String, of id: ModelID, ifAt pointee: ModelID) {
        // A model deleted earlier in the transaction is gone: nothing to clear.
        guard models.toOne(of: id)?[name] == pointee else { return }
        modify(id) { $0.toOne[name] = nil }
    }

    private mutating func setToMany(
        _ relationship: RelationshipDescription,
        to members: [ModelID],
        on id: ModelID,
        of entity: EntityDescription
    ) {
        guard let inverse = schema.inverse(of: relationship, in: entity.name) else {
            setStoredMembers(members, of: relationship.name, on: id)
            return
        }
        if !inverse.isToMany {
            moveInversePointers(inverse.name, of: relationship.destination, to: id, for: members)
            return
        }
        // Many-to-many: both sides stored, kept in step.
        let old = models[id]?.toMany[relationship.name] ?? []
        for removed in old where !members.contains(removed) {
            updateStoredMembers(of: inverse.name, on: removed) { $0.filter { $0 != id } }
        }
        for added in members where !old.contains(added) {
            updateStoredMembers(of: inverse.name, on: added) { $0 + [id] }
        }
        setStoredMembers(members, of: relationship.name, on: id)
    }

    /// The derived side: the listed models point at `owner`, those that did and are not listed
    /// point at nothing.
    private mutating func moveInversePointers(
        _ inverse: String,
        of destination: String,
        to owner: ModelID,
        for members: [ModelID]
    ) {
        let current = models
            .filter { $0.entity == destination && $0.toOne[inverse] == owner }
            .map(\.id)
        for removed in current where !members.contains(removed) {
            clearPointer(inverse, of: removed, ifAt: owner)
        }
        for added in members {
            guard var model = models[added] else { preconditionFailure("moving \(added)") }
            guard model.toOne[inverse] != owner else { continue }
            model.toOne[inverse] = owner
            write(model)
        }
    }

    private mutating func updateStoredMembers(
        of name: String,
        on id: ModelID,
        _ change: ([ModelID]) -> [ModelID]
    ) {
        guard let model = models[id] else { preconditionFailure("updating members of \(id)") }
        setStoredMembers(change(model.toMany[name] ?? []), of: name, on: id)
    }

    /// Stores members sorted and without duplicates; no members, no key.
    private mutating func setStoredMembers(_ members: [ModelID], of name: String, on id: ModelID) {
        guard var model = models[id] else { preconditionFailure("setting members of \(id)") }
        let normalized = Array(Set(members)).sorted()
        model.toMany[name] = normalized.isEmpty ? nil : normalized
        write(model)
    }
}
