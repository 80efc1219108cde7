import LocalStore

/// Which identities one store holds, followed through its history in order (every author),
/// so the ledger can tell whether the app gave a model an identity the store already held
/// (a twin on purpose, ID-5) or not (so that a twin appearing later is a race, LIM-2).
struct IdentityCensus {
    /// Live models per identity key (`Entity|values`).
    private var live: [String: Int] = [:]
    /// The identity key each live model was counted under.
    private var keys: [ModelID: String] = [:]

    /// Follows one change of the history; returns the identity key when the change gave a
    /// model an identity another live model of the store already had.
    mutating func follow(_ change: HistoryChange, store: Store, entities: EntityFacts) -> String? {
        switch change {
        case .inserted(let id, let entity):
            return count(id, entity: entity, store: store, entities: entities)
        case .updated(let id, let entityName, let changed):
            guard let position = entities.position(of: entityName),
                changed.contains(where: entities.identity(at: position).contains)
            else { return nil }
            forget(id)
            return count(id, entity: entityName, store: store, entities: entities)
        case .deleted(let id, _, _):
            forget(id)
            return nil
        }
    }

    private mutating func count(_ id: ModelID, entity: String, store: Store, entities: EntityFacts)
        -> String?
    {
        guard let position = entities.position(of: entity),
            !entities.identity(at: position).isEmpty,
            let model = store.model(id),
            let key = entities.identityKey(model, at: position) else { return nil }
        let twin = live[key, default: 0] > 0
        live[key, default: 0] += 1
        keys[id] = key
        return twin ? key : nil
    }

    private mutating func forget(_ id: ModelID) {
        guard let key = keys[id] else { return }
        live[key, default: 1] -= 1
        keys[id] = nil
    }
}
