/// A SwiftData-like store: the models of declared entities, saved in transactions, with a
/// history of those transactions (author, changes, tombstones).
///
/// A value type: the device keeps it on its disk, so it survives a kill. Copies share their
/// storage until one of them changes (copy on write), so keeping one per device is cheap.
///
/// Invariants, checked by every save: every stored value has its attribute's type, every
/// non-optional attribute has a value, and no relationship points at a model that is gone.
public struct Store: Hashable, Sendable {
    /// The stored fields, behind one reference (`StoreStorage`): a copy of a store is one
    /// retain instead of five, and as little to destroy (devices and checkers copy stores
    /// often).
    private var box: StoreStorage

    public var schema: Schema { box.fields.schema }
    /// The models, by identifier (dense slots: ModelTable.swift). Read through the sorted
    /// queries; walked only in identifier order.
    var storage: ModelTable {
        _read { yield box.fields.storage }
        _modify {
            makeUnique()
            yield &box.fields.storage
        }
    }
    /// The raw value of the next identifier `makeModelID()` hands out; it never goes back,
    /// except over identifiers given back unused (`releaseModelIDs(since:)`).
    var nextModelRawValue: UInt64 {
        get { box.fields.nextModelRawValue }
        set { makeUnique(); box.fields.nextModelRawValue = newValue }
    }
    /// The kept history entries, in position order.
    var entries: [HistoryEntry] {
        _read { yield box.fields.entries }
        _modify {
            makeUnique()
            yield &box.fields.entries
        }
    }
    /// The position of the newest entry ever saved; positions are never reused.
    var newestHistoryPosition: Int64 {
        get { box.fields.newestHistoryPosition }
        set { makeUnique(); box.fields.newestHistoryPosition = newValue }
    }
    /// How many times the store's models vanished or were rebuilt (0 for a new store), so a
    /// reader can tell that the models it knew are gone (HDO-3).
    public internal(set) var generation: Int {
        get { box.fields.generation }
        set { makeUnique(); box.fields.generation = newValue }
    }
    /// Entries at or before this position were discarded (`lose`, `rebuild`, `deleteHistory`):
    /// a reader whose last seen position is lower missed changes.
    public internal(set) var historyDiscardedThrough: Int64 {
        get { box.fields.historyDiscardedThrough }
        set { makeUnique(); box.fields.historyDiscardedThrough = newValue }
    }
    /// Batch deletes as the persistent history keeps them (Store+PersistentHistory.swift).
    var batchDeletions: [BatchDeletionEntry] {
        _read { yield box.fields.batchDeletions }
        _modify {
            makeUnique()
            yield &box.fields.batchDeletions
        }
    }
    /// The token of the newest batch delete ever recorded (numbers are never reused).
    var newestBatchToken: HistoryToken? {
        get { box.fields.newestBatchToken }
        set { makeUnique(); box.fields.newestBatchToken = newValue }
    }

    public init(schema: Schema) {
        // A store of no entities is what a device swaps in while it lends its disk to an
        // engine, once an event: those share one storage, so making one allocates nothing.
        box =
            schema.entities.isEmpty
            ? StoreStorage.empty : StoreStorage(StoreFields(schema: schema))
    }

    /// Gives this store its own storage before a change, when another copy shares it.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&box) { box = StoreStorage(box.fields) }
    }

    public static func == (lhs: Store, rhs: Store) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(box.fields)
    }

    /// Reserves the identifier of a model about to be inserted.
    public mutating func makeModelID() -> ModelID {
        precondition(nextModelRawValue < UInt64.max, "model identifiers exhausted")
        let id = ModelID(nextModelRawValue)
        nextModelRawValue += 1
        return id
    }

    /// Where identifier reservation stands: a mark `releaseModelIDs(since:)` can go back to.
    public var modelIDMark: UInt64 { nextModelRawValue }

    /// Gives back the identifiers reserved since `mark` (from `modelIDMark`), none of which
    /// any model has: the transaction they were reserved for was refused, so the next
    /// `makeModelID()` hands them out again, as if they had never been reserved. O(reserved).
    public mutating func releaseModelIDs(since mark: UInt64) {
        precondition(mark <= nextModelRawValue, "a mark from the future")
        precondition((mark..<nextModelRawValue).allSatisfy { !storage.contains(ModelID($0)) },
                     "giving back an identifier in use")
        nextModelRawValue = mark
    }

    /// Applies a transaction atomically: validates every value, applies delete rules
    /// (cascade, nullify, deny), keeps inverse relationships in step, and appends one history
    /// entry (returned; nil when the transaction changed nothing).
    ///
    /// Operations apply in order; delete rules apply once all of them did, to the
    /// relationships as the transaction leaves them. A refused transaction leaves the store
    /// exactly as it was.
    ///
    /// - A relationship target must exist when its operation runs (saved before, or inserted
    ///   by an earlier operation of the transaction) and be of the destination entity.
    /// - Clearing a non-optional attribute that has a default stores the default; clearing
    ///   one without a default is refused (`required value missing`) unless a later operation
    ///   gives it a value.
    /// - Inserting an identifier in use (or used earlier in the transaction) is refused as an
    ///   invalid value of the property `id`; deleting a model twice in one transaction is
    ///   deleting it once.
    /// - History changes come in the order the transaction first touched the models (an
    ///   operation's own model before those it changed through inverses), each cascaded
    ///   deletion right after its cause, models changed only by a nullify last, by identifier.
    @discardableResult
    public mutating func save(
        _ transaction: Transaction,
        author: String
    ) throws(StoreError) -> HistoryEntry? {
        guard !transaction.isEmpty else { return nil }
        return try save(transaction.operations, author: author)
    }

    /// Saves one operation exactly as a transaction of it alone (`save(_:author:)`), without
    /// building the transaction (its list of operations is an allocation on every save).
    @discardableResult
    public mutating func save(
        _ operation: Transaction.Operation,
        author: String
    ) throws(StoreError) -> HistoryEntry? {
        try save(CollectionOfOne(operation), author: author)
    }

    /// `save(_:author:)` of a transaction's operations, at least one.
    private mutating func save<Operations: Collection>(
        _ operations: Operations,
        author: String
    ) throws(StoreError) -> HistoryEntry? where Operations.Element == Transaction.Operation {
        // The storage made this store's own once, then its fields read and changed where they
        // are: each field's accessor checked the storage's uniqueness again.
        makeUnique()
        let owned = box
        var draft = SaveDraft(
            schema: owned.fields.schema, models: owned.fields.storage,
            nextRawValue: owned.fields.nextModelRawValue)
        // The draft then holds the only reference to the models: changed in place, not copied.
        owned.fields.storage = ModelTable()
        // The storage is this store's own: its spare list is this save's alone.
        draft.listTouched(in: takeSpareTouched())
        do {
            try draft.apply(operations)
        } catch {
            owned.fields.storage = draft.undo()
            keepSpareTouched(draft.takeEmptiedTouched())
            throw error
        }
        // The changes are read from the draft's models, which then move back without a copy
        // (`draft.models` retained the table, and the draft released it when gone).
        let changes = draft.changes()
        owned.fields.storage = draft.takeModels()
        keepSpareTouched(draft.takeEmptiedTouched())
        precondition(
            draft.nextRawValue >= owned.fields.nextModelRawValue, "identifier counter went back")
        owned.fields.nextModelRawValue = draft.nextRawValue
        guard !changes.isEmpty else { return nil }
        owned.fields.newestHistoryPosition += 1
        let entry = HistoryEntry(
            position: owned.fields.newestHistoryPosition, author: author, changes: changes)
        owned.fields.entries.append(entry)
        return entry
    }

    /// The spare list of touched models of this store's storage (`StoreStorage.spareTouched`),
    /// taken out for a save.
    private func takeSpareTouched() -> [(id: ModelID, original: Model?)] {
        var spare: [(id: ModelID, original: Model?)] = []
        swap(&spare, &box.spareTouched)
        return spare
    }

    /// Keeps an emptied list of touched models for the next save; one grown by a large save
    /// is let go rather than held for the store's life.
    private func keepSpareTouched(_ spare: consuming [(id: ModelID, original: Model?)]) {
        guard spare.capacity <= 16 else { return }
        box.spareTouched = spare
    }

    /// Deletes matching models directly (DEL-2): no delete rules, no save notification (the
    /// persistent history keeps it, with tombstones: `persistentHistory(after:)`). Returns the
    /// deleted identifiers, sorted.
    ///
    /// A model matches when each attribute of `filter` has that value (an empty filter matches
    /// every model of the entity). Pointers of other models at deleted ones are cleared
    /// silently, so no relationship is left dangling.
    @discardableResult
    public mutating func batchDelete(
        entity: String,
        where filter: [String: AttributeValue]
    ) -> [ModelID] {
        let doomed = models(of: entity, where: filter).map(\.id)
        guard !doomed.isEmpty else { return [] }
        recordBatchDeletion(of: doomed)
        let deleted = Set(doomed)
        for id in doomed {
            storage[id] = nil
        }
        var changed: [Model] = []
        storage.forEachInOrder { model in
            let cleared = model.removingPointers(to: deleted)
            if cleared != model {
                changed.append(cleared)
            }
        }
        for model in changed {
            storage[model.id] = model
        }
        return doomed
    }

    /// Empties the store as if its file vanished (HDO-3); identifiers are never reused.
    ///
    /// History positions are not reused either: the next entry continues after the last one.
    public mutating func lose() {
        storage = ModelTable()
        discardHistory()
        generation += 1
    }

    /// Rebuilds the store with the same data and new identifiers (DEL-3, HDO-3), history
    /// emptied. Returns the old → new identifier pairs, sorted by the old identifier.
    @discardableResult
    public mutating func rebuild() -> [(old: ModelID, new: ModelID)] {
        let oldIDs = storage.sortedIDs
        var newIDs: [ModelID: ModelID] = [:]
        var pairs: [(old: ModelID, new: ModelID)] = []
        for old in oldIDs {
            let new = makeModelID()
            newIDs[old] = new
            pairs.append((old: old, new: new))
        }
        func remapped(_ id: ModelID) -> ModelID {
            guard let new = newIDs[id] else { preconditionFailure("dangling pointer at \(id)") }
            return new
        }
        var rebuilt = ModelTable()
        rebuilt.reserveCapacity(forInserts: oldIDs.count)
        for old in oldIDs {
            guard var model = storage[old] else { preconditionFailure("\(old) vanished") }
            model.id = remapped(old)
            model.toOne = model.toOne.mapValues(remapped)
            model.toMany = model.toMany.mapValues { $0.map(remapped).sorted() }
            rebuilt[model.id] = model
        }
        precondition(rebuilt.count == storage.count, "rebuild lost models")
        storage = rebuilt
        discardHistory()
        generation += 1
        return pairs
    }

    /// Deletes the history entries at or before a position (like purging persistent
    /// history), so a long run need not keep every entry.
    public mutating func deleteHistory(through position: Int64) {
        entries.removeAll { $0.position <= position }
        historyDiscardedThrough = max(historyDiscardedThrough, min(position, newestHistoryPosition))
    }

    private mutating func discardHistory() {
        entries = []
        batchDeletions = []
        historyDiscardedThrough = newestHistoryPosition
    }
}
