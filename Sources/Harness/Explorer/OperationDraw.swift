import Kernel
import LocalStore
import Scenario

/// Draws one model operation for one device from what that device holds now; nil when the
/// kind cannot act there (nothing to update, no relationship to set), and the draw then
/// falls back to an insert.
struct OperationDraw {
    let step: Int
    let device: String
    /// The device's index in the world (`World.deviceIndex[device]`, known to the draw).
    let deviceIndex: Int
    /// The number of the label an insert binds (`newLabel`).
    let labelNumber: Int
    let run: ChaosRun

    func draw(
        _ kind: ChaosOperationKind, operations: inout Xoshiro256StarStar,
        values: inout Xoshiro256StarStar
    ) -> ChaosAction? {
        switch kind {
        case .insert: return insert(&operations, &values)
        case .update: return update(&operations, &values)
        case .delete: return delete(&operations)
        case .link: return link(&operations, &values)
        case .large: return large(&operations)
        case .batchDelete: return batchDelete(&operations, &values)
        case .share: return share(&operations, &values)
        case .unshare: return unshare(&operations)
        }
    }

    var workloadEntities: [String] { run.plan.entityNames }

    /// The label an insert binds: written only for an insert (most draws are not).
    private var newLabel: String { run.plan.labelPrefix + String(labelNumber) }

    /// Labels of the given entities whose model this device holds, in binding order, by
    /// their position in `run.labels` (read only for the label drawn or filtered).
    func held(_ entities: [String]) -> [Int] {
        run.heldPositions(entities, on: deviceIndex)
    }

    /// The label bound at a position of `run.labels`.
    func boundLabel(at position: Int) -> String { run.labels[position].label }

    /// The entity of the label bound at a position of `run.labels`.
    func boundEntity(at position: Int) -> String { run.labels[position].entity }

    /// `positions.filter(isIncluded)` in a list sized once: grown element by element, each
    /// filtered list of a draw was reallocated several times.
    func select(_ positions: [Int], where isIncluded: (Int) -> Bool) -> [Int] {
        var selected: [Int] = []
        selected.reserveCapacity(positions.count)
        for position in positions where isIncluded(position) { selected.append(position) }
        return selected
    }

    func pick<T>(_ items: [T], _ random: inout Xoshiro256StarStar) -> T? {
        guard !items.isEmpty else { return nil }
        return items[Int(random.uniform(below: UInt64(items.count)))]
    }

    private func insert(_ operations: inout Xoshiro256StarStar, _ values: inout Xoshiro256StarStar)
        -> ChaosAction?
    {
        // The entity and its attributes read in place, drawn as `pick` draws: copied out,
        // each was retained string by string and freed again.
        let entities = run.plan.entities
        guard !entities.isEmpty else { return nil }
        let chosen = Int(operations.uniform(below: UInt64(entities.count)))
        let attributes = entities[chosen].attributes
        // A twin of an identity the device holds would be made on purpose (ID-5); the draw
        // leaves those to ordinary timelines, so a duplicate it finds is a race (LIM-2).
        for _ in 0..<ChaosPlan.identityPoolSize {
            var assignments: [ChaosAssignment] = []
            assignments.reserveCapacity(attributes.count)
            for position in attributes.indices {
                let isIdentity = entities[chosen].identity.contains {
                    $0.value == attributes[position].name.value
                }
                let required = !attributes[position].isOptional
                    && attributes[position].defaultValue == nil
                guard isIdentity || required || values.chance(1, in: 2) else { continue }
                assignments.append(ValueDraw.value(
                    key: attributes[position].name.value, type: attributes[position].type,
                    step: step, isIdentity: isIdentity, random: &values))
            }
            if entities[chosen].identity.isEmpty
                || !holdsIdentity(of: assignments, entity: entities[chosen].name.value)
            {
                return .insert(
                    device: device, entity: entities[chosen].name.value, label: newLabel,
                    values: assignments)
            }
        }
        return nil
    }

    /// Whether the device holds a model of the entity with the identity these values give.
    /// (Given the entity's name: the declaration passed in was copied for the call.)
    private func holdsIdentity(of assignments: [ChaosAssignment], entity: String) -> Bool {
        let index = deviceIndex
        guard let description = run.world.schema.entity(named: entity) else { return false }
        var wanted: [String: LocalStore.AttributeValue] = [:]
        for name in description.identity {
            guard let assignment = assignments.first(where: { $0.key == name }),
                let attribute = description.attribute(named: name),
                let value = ValueConversion.attributeValue(assignment.literal, type: attribute.type)
            else { return false }
            wanted[name] = value
        }
        let store = run.world.devices[index].store
        return !store.models(of: entity, where: wanted).isEmpty
    }

    private func update(_ operations: inout Xoshiro256StarStar, _ values: inout Xoshiro256StarStar)
        -> ChaosAction?
    {
        guard let target = pick(held(workloadEntities), &operations),
            let attributes = run.plan.updatableAttributes(of: boundEntity(at: target))
        else { return nil }
        guard !attributes.isEmpty else { return nil }
        let count = min(attributes.count, operations.chance(1, in: 3) ? 2 : 1)
        var assignments: [ChaosAssignment] = []
        assignments.reserveCapacity(count)
        // Drawn as from a list of the attributes not drawn yet, shrinking as it goes (at most
        // two draws: past the first one drawn, a position in that list is one further on).
        var first = -1
        for draw in 0..<count {
            let position = Int(operations.uniform(below: UInt64(attributes.count - draw)))
            let drawn = draw == 0 || position < first ? position : position + 1
            if draw == 0 { first = drawn }
            // Read in place (a copy of the attribute retained each string in it).
            if attributes[drawn].isOptional && values.chance(1, in: 8) {
                assignments.append(ValueDraw.null(for: attributes[drawn]))
            } else {
                assignments.append(ValueDraw.value(
                    key: attributes[drawn].name.value, type: attributes[drawn].type, step: step,
                    isIdentity: false, random: &values))
            }
        }
        return .update(device: device, label: boundLabel(at: target), values: assignments)
    }

    private func delete(_ operations: inout Xoshiro256StarStar) -> ChaosAction? {
        let index = deviceIndex
        let (store, observation) = run.disk(of: index)
        let deletable = select(held(workloadEntities)) { position in
            guard let id = run.modelID(
                atPosition: position, on: index, observation: observation, store: store),
                let denying = run.denyRelationships(of: boundEntity(at: position))
            else { return false }
            // A deny rule with related models refuses the save: that is the app's mistake,
            // not a fault to explore.
            return !denying.contains { relationship in
                !store.relatedModels(of: id, relationship: relationship).isEmpty
            }
        }
        guard let target = pick(deletable, &operations) else { return nil }
        return .delete(device: device, label: boundLabel(at: target))
    }

    private func link(_ operations: inout Xoshiro256StarStar, _ values: inout Xoshiro256StarStar)
        -> ChaosAction?
    {
        let heldNow = held(workloadEntities)
        let linkable = select(heldNow) { run.plan.hasToOneRelationship(boundEntity(at: $0)) }
        guard let sourcePosition = pick(linkable, &operations),
            let entity = run.plan.entity(named: boundEntity(at: sourcePosition)),
            let relationship = pick(
                entity.relationships.filter { $0.cardinality == .toOne }, &operations)
        else { return nil }
        let source = boundLabel(at: sourcePosition)
        // Nothing changed since `heldNow` was read: a workload entity's labels held are the
        // ones among them (the world is not asked twice for every label of the workload).
        let targetEntity = relationship.target.value
        let ofTarget = workloadEntities.contains(targetEntity)
            ? select(heldNow) { boundEntity(at: $0) == targetEntity } : held([targetEntity])
        let targets = select(ofTarget) { boundLabel(at: $0) != source }
        let key = relationship.name.value
        guard let targetPosition = pick(targets, &operations), !values.chance(1, in: 5) else {
            return .update(device: device, label: source,
                values: [ChaosAssignment(key: key, literal: .null, keptText: "nil")])
        }
        let target = boundLabel(at: targetPosition)
        return .update(device: device, label: source,
            values: [ChaosAssignment(key: key, literal: .label(target), keptText: target)])
    }

    private func large(_ operations: inout Xoshiro256StarStar) -> ChaosAction? {
        func largeAttributes(_ entity: EntityDeclaration) -> [AttributeDeclaration] {
            entity.attributes.filter { attribute in
                (attribute.type == .string || attribute.type == .data)
                    && !entity.identity.contains { $0.value == attribute.name.value }
            }
        }
        let candidates = select(held(workloadEntities)) { position in
            run.plan.entity(named: boundEntity(at: position)).map { !largeAttributes($0).isEmpty }
                ?? false
        }
        guard let target = pick(candidates, &operations),
            let entity = run.plan.entity(named: boundEntity(at: target)),
            let attribute = pick(largeAttributes(entity), &operations),
            let value = ValueDraw.large(for: attribute) else { return nil }
        return .update(device: device, label: boundLabel(at: target), values: [value])
    }
}
