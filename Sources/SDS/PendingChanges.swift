import LocalStore

/// The models with changes not uploaded yet (SYNC-1), by model, readable in identifier
/// order without sorting: a map from model to `PendingChange` with two ordered indexes kept
/// in step with it.
///
/// An upload takes the pending models in identifier order, 400 per request; sorting every
/// pending model for each request made an upload of N models cost O(N² log N / 400).
/// `inOrder` reads them in order at the cost of what it visits (plus a word per 64
/// identifiers), and `othersInOrder` reads only the changes that are not plain inserts, which
/// are the only ones some questions are about (adoptions, moves, updates of existing records).
///
/// Equal when the maps are equal; the indexes are derived from the map.
public struct PendingChanges: Hashable, Sendable, ExpressibleByDictionaryLiteral {
    private var changes: [ModelID: PendingChange] = [:]
    private var all = OrderedModelIDs()
    private var others = OrderedModelIDs()

    public init() {}

    public init(dictionaryLiteral elements: (ModelID, PendingChange)...) {
        // Each key of the literal list is set independently.
        for (id, change) in elements { self[id] = change } // tidy: ordered (a literal list)
    }

    public subscript(id: ModelID) -> PendingChange? {
        get { changes[id] }
        set {
            if let newValue {
                // (`isNil`: `== nil` copied the replaced change into a pair to compare it.)
                if changes.updateValue(newValue, forKey: id).isNil { all.insert(id) }
                if newValue.isPlainInsert { others.remove(id) } else { others.insert(id) }
            } else if !changes.removeValue(forKey: id).isNil {
                all.remove(id)
                others.remove(id)
                // A dictionary keeps its buckets when emptied: after an upload of N models,
                // buckets for all N would stay allocated.
                if changes.isEmpty { releaseLargeStorage() }
            }
        }
    }

    /// Whether the model has a pending change (a bit of `inOrder`: no hashing).
    func contains(_ id: ModelID) -> Bool { all.contains(id) }

    /// Changes a model's pending change in place, starting from `PendingChange()` when it has
    /// none; a change left without keys is forgotten.
    ///
    /// Reading a change, changing it and setting it back would copy its keys at their first
    /// change (the map still holds them: copy on write), an allocation and a rehash of every
    /// key per recorded edit and per uploaded record. Here the map's entry is changed where it
    /// is: one lookup, no copy.
    ///
    /// A model's existing change is found by its index, so a change left empty (every one an
    /// upload answer clears) is removed at that index, without hashing the model again.
    mutating func modify(_ id: ModelID, _ body: (inout PendingChange) -> Void) {
        let isNew = !all.contains(id)
        let index = isNew ? nil : changes.index(forKey: id)
        let (isEmpty, isPlainInsert) = if let index {
            Self.change(&changes.values[index], body)
        } else {
            Self.change(&changes[id, default: PendingChange()], body)
        }
        if isEmpty {
            if let index { changes.remove(at: index) } else { changes.removeValue(forKey: id) }
            all.remove(id)
            others.remove(id)
            if changes.isEmpty { releaseLargeStorage() }
            return
        }
        if isNew { all.insert(id) }
        if isPlainInsert { others.remove(id) } else { others.insert(id) }
    }

    /// Most changes a device uploads together fit in this many: emptied maps this small
    /// keep their buckets.
    private static let keptCapacity = 24

    /// Called when the last change is gone: frees the map's buckets (and the indexes'
    /// words) when they are many. A small map keeps them: freed, the next saves would grow it
    /// again from nothing (1, 3, 6, 12, … a reallocation and a rehash of every model at each
    /// step). The buckets' order never shows (`keys` is sorted by its readers).
    private mutating func releaseLargeStorage() {
        if changes.capacity > Self.keptCapacity { self = PendingChanges() }
    }

    /// Applies `body` to a change, reporting what the indexes need of the result.
    private static func change(
        _ change: inout PendingChange, _ body: (inout PendingChange) -> Void
    ) -> (isEmpty: Bool, isPlainInsert: Bool) {
        body(&change)
        return (change.keys.isEmpty, change.isPlainInsert)
    }

    /// The models with a pending change, in hashing order: sort them, or read `inOrder`.
    public var keys: Dictionary<ModelID, PendingChange>.Keys { changes.keys }
    public var count: Int { changes.count }
    public var isEmpty: Bool { changes.isEmpty }

    /// Every model with a pending change, in identifier order.
    public var inOrder: OrderedModelIDs { all }

    /// The models whose change is not a plain insert (`PendingChange.isPlainInsert`), in
    /// identifier order.
    public var othersInOrder: OrderedModelIDs { others }

    public static func == (lhs: PendingChanges, rhs: PendingChanges) -> Bool {
        lhs.changes == rhs.changes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(changes)
    }
}

extension PendingChange {
    /// A new model's first upload and nothing else: not an adoption (ADOPT-1), no move away
    /// from a parent (ERR-6). Most of a large upload is made of these.
    public var isPlainInsert: Bool { isInsert && !isAdoption && movedFrom.isEmpty }
}
