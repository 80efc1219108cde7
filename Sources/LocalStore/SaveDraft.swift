/// The working state of one `Store.save`: the store's models changed in place, with what
/// undoes the changes (a refused transaction leaves no trace) and what describes them (the
/// history entry).
///
/// Every change of a model goes through `write` or `remove`, which remember the model as it
/// was before the transaction and the order in which models were first touched.
struct SaveDraft {
    let schema: Schema
    /// The models as the transaction leaves them so far.
    private(set) var models: ModelTable
    var nextRawValue: UInt64
    /// Every touched model in the order first touched (the order of the history's changes),
    /// with what it was before the transaction: nil for one the transaction inserted.
    ///
    /// A list, not a table of originals: most saves touch one to three models, and a table
    /// would hash each identifier and allocate its storage on every save. The list is
    /// searched in turn up to `touchScanLimit` models, through `touchPositions` beyond.
    private(set) var touched: [(id: ModelID, original: Model?)] = []
    /// The position of each touched model in `touched`, kept once it holds more than
    /// `touchScanLimit` (a transaction of many operations).
    // The draft's empty tables are made with `init()`: a literal built each from an (empty)
    // list of pairs, four times a save.
    private var touchPositions: [ModelID: Int] = Dictionary()
    private static var touchScanLimit: Int { 16 }
    /// The model an update touched first, while its values map is still shared with its
    /// original in `touched`: its first attribute write copies the map pair by pair
    /// (`SortedMap.copy`), not through the runtime's generic copy of a shared array.
    var sharedValues: ModelID?

    /// Where `touched` holds a model, if the transaction touched it.
    private func touchPosition(of id: ModelID) -> Int? {
        guard touched.count > Self.touchScanLimit else {
            return touched.firstIndex { $0.id == id }
        }
        return touchPositions[id]
    }

    /// Whether the transaction touched a model (an identifier used, even if the model is gone).
    func isTouched(_ id: ModelID) -> Bool { touchPosition(of: id) != nil }

    /// The model as it was before the transaction: nil when the transaction inserted it or
    /// did not touch it.
    func original(of id: ModelID) -> Model? {
        touchPosition(of: id).flatMap { touched[$0].original }
    }
    /// What the transaction deleted: nil until it deletes a model, so that a save that
    /// deletes nothing (most) holds none of these lists and tables, nor destroys them.
    private var deletions: Deletions?

    /// The lists and tables of a deleting transaction (`deletions`).
    private struct Deletions {
        var explicit: [ModelID] = []
        var tombstones: [(id: ModelID, model: Model)] = []
        var tombstonePositions: [ModelID: Int] = Dictionary()
        var cascades: [ModelID: [ModelID]] = Dictionary()
        var cascaded: Set<ModelID> = Set()
    }

    /// `deletions`, made when first changed.
    private var madeDeletions: Deletions {
        get { deletions ?? Deletions() }
        _modify {
            if case .none = deletions { deletions = Deletions() }
            yield &deletions!
        }
    }

    /// The models deleted by a `.delete` operation, in operation order.
    var explicitDeletions: [ModelID] {
        get { deletions?.explicit ?? [] }
        _modify { yield &madeDeletions.explicit }
    }
    /// Adds a model to `explicitDeletions`; the first as a literal (most deleting saves
    /// delete one model): a first append went through the generic growth path.
    mutating func listExplicitDeletion(_ id: ModelID) {
        if deletions?.explicit.isEmpty ?? true {
            explicitDeletions = [id]
        } else {
            explicitDeletions.append(id)
        }
    }

    /// Every deleted model as it was when deleted, in the order deleted (`tombstone(of:)`).
    ///
    /// A list, not a `[ModelID: Model]`, which would allocate its storage and hash the
    /// identifier three times for every deleting save, where most delete one model. The list
    /// is searched in turn up to `touchScanLimit` models, through `tombstonePositions` beyond.
    private var tombstones: [(id: ModelID, model: Model)] {
        get { deletions?.tombstones ?? [] }
        _modify { yield &madeDeletions.tombstones }
    }
    /// The position of each deleted model in `tombstones`, kept once it holds more than
    /// `touchScanLimit`.
    private var tombstonePositions: [ModelID: Int] {
        get { deletions?.tombstonePositions ?? Dictionary() }
        _modify { yield &madeDeletions.tombstonePositions }
    }

    // Read in `deletions` where they are: the accessors return copies of the list and table.
    private func tombstonePosition(of id: ModelID) -> Int? {
        guard case .some = deletions else { return nil }
        guard deletions!.tombstones.count > Self.touchScanLimit else {
            return deletions!.tombstones.firstIndex { $0.id == id }
        }
        return deletions!.tombstonePositions[id]
    }

    /// The model as it was when the transaction deleted it; nil when it did not delete it.
    func tombstone(of id: ModelID) -> Model? {
        tombstonePosition(of: id).map { deletions!.tombstones[$0].model }
    }

    /// Whether the transaction deleted the model.
    func isDeleted(_ id: ModelID) -> Bool { tombstonePosition(of: id) != nil }

    /// Removes a stored model and keeps it as its tombstone (a removed model never comes
    /// back, so each is buried once).
    mutating func bury(_ id: ModelID) {
        let model = remove(id)
        // The first one listed as a literal (most deleting saves bury one model): a first
        // append went through the generic growth path.
        if deletions?.tombstones.isEmpty ?? true {
            tombstones = [(id: id, model: model)]
        } else {
            tombstones.append((id: id, model: model))
        }
        if tombstones.count == Self.touchScanLimit + 1 {
            tombstonePositions.reserveCapacity(tombstones.count * 2)
            for (position, entry) in tombstones.enumerated() {
                tombstonePositions[entry.id] = position
            }
        } else if tombstones.count > Self.touchScanLimit + 1 {
            tombstonePositions[id] = tombstones.count - 1
        }
    }
    /// For each explicit deletion whose cascade deleted models, those models in the order
    /// reached (a deletion that cascades to nothing has no entry: most have none, and the
    /// table then allocates nothing).
    var cascades: [ModelID: [ModelID]] {
        get { deletions?.cascades ?? Dictionary() }
        _modify { yield &madeDeletions.cascades }
    }
    /// Every model deleted by a cascade (and not by an operation).
    var cascaded: Set<ModelID> {
        get { deletions?.cascaded ?? Set() }
        _modify { yield &madeDeletions.cascaded }
    }

    init(schema: Schema, models: ModelTable, nextRawValue: UInt64) {
        self.schema = schema
        self.models = models
        self.nextRawValue = nextRawValue
    }

    /// Lists the touched models in `spare`, an empty list kept from an earlier save, so that
    /// the draft allocates no list of its own.
    mutating func listTouched(in spare: consuming [(id: ModelID, original: Model?)]) {
        precondition(touched.isEmpty && spare.isEmpty, "a spare list holding models")
        touched = spare
    }

    /// The list of touched models, emptied with its room kept, for another draft; the draft
    /// lists none after.
    mutating func takeEmptiedTouched() -> [(id: ModelID, original: Model?)] {
        var taken: [(id: ModelID, original: Model?)] = []
        swap(&taken, &touched)
        // One by one from the end: `removeAll(keepingCapacity:)` goes through the generic
        // `replaceSubrange`.
        while !taken.isEmpty { taken.removeLast() }
        return taken
    }

    /// Applies the operations in order, then the delete rules, then checks required values.
    mutating func apply<Operations: Collection>(
        _ operations: Operations
    ) throws(StoreError) where Operations.Element == Transaction.Operation {
        var inserts = 0
        for case .insert in operations { inserts += 1 }
        models.reserveCapacity(forInserts: inserts)
        // Each operation touches its model, some one or two more through inverses: room
        // for them at once, not grown from one entry to two to four (an allocation and a
        // move of the models each) on most saves.
        touched.reserveCapacity(max(4, operations.count + 2))
        for operation in operations {
            try apply(operation)
        }
        try applyDeleteRules()
        try checkRequiredValues()
    }

    /// The entity of a stored model; every stored model's entity is declared.
    func entity(of model: Model) -> EntityDescription {
        guard let entity = schema.entity(named: model.entity) else {
            preconditionFailure("\(model.id) is of undeclared entity '\(model.entity)'")
        }
        return entity
    }

    /// Consumes the model (see `ModelTable.store`).
    mutating func write(_ model: consuming Model) {
        let id = model.id
        touch(id)
        models[id] = model
    }

    /// Changes a stored model in place (after `write`'s bookkeeping): a model the transaction
    /// inserted is held once, so setting its values copies no dictionary.
    mutating func modify(_ id: ModelID, _ body: (inout Model) -> Void) {
        touch(id)
        guard models.modify(id, body) != nil else {
            preconditionFailure("changing \(id), which does not exist")
        }
    }

    /// `modify` of a model the operation being applied touched already (its own): the touched
    /// list is not searched again for each value the operation writes.
    mutating func modifyTouched(_ id: ModelID, _ body: (inout Model) -> Void) {
        guard models.modify(id, body) != nil else {
            preconditionFailure("changing \(id), which does not exist")
        }
    }

    /// What `touched` holds at a position as the model's original, moved out (nil left): the
    /// history reads each once, and a copy would retain each of its references.
    mutating func takeOriginal(at position: Int) -> Model? {
        touched[position].original.take()
    }

    /// `Model.changedKeys(since:)` of a model as the transaction leaves it, read where it is
    /// stored (`ModelTable.changedKeysInPlace`).
    mutating func changedKeys(of id: ModelID, since before: Model) -> [String]? {
        models.changedKeysInPlace(of: id, since: before)
    }

    /// The entity of a stored model by name, read where the model is stored (`models[id]`
    /// copied the whole model out); nil when there is no such model.
    mutating func entityName(of id: ModelID) -> String? {
        models.modify(id) { $0.entity }
    }

    /// Removes a model and returns it as it was.
    mutating func remove(_ id: ModelID) -> Model {
        touch(id)
        guard let model = models.removeValue(forKey: id) else {
            preconditionFailure("removing \(id), which does not exist")
        }
        return model
    }

    /// The models as the transaction leaves them, moved out: the draft holds none after.
    mutating func takeModels() -> ModelTable {
        var taken = ModelTable()
        swap(&taken, &models)
        return taken
    }

    /// The models as they were before the transaction.
    mutating func undo() -> ModelTable {
        for (id, original) in touched { // tidy: ordered the order first touched
            // nil for a model the transaction inserted: that removes it.
            models[id] = original
        }
        return models
    }

    /// Marks a model as touched now, changed or not: an operation's own model comes before
    /// the models it changes through inverses.
    /// Whether it was not touched before.
    @discardableResult
    mutating func touch(_ id: ModelID) -> Bool {
        guard !isTouched(id) else { return false }
        touched.append((id: id, original: models[id]))
        if touched.count == Self.touchScanLimit + 1 {
            touchPositions.reserveCapacity(touched.count * 2)
            for (position, entry) in touched.enumerated() { touchPositions[entry.id] = position }
        } else if touched.count > Self.touchScanLimit + 1 {
            touchPositions[id] = touched.count - 1
        }
        return true
    }

    /// Every non-optional attribute of every model the transaction leaves must have a value.
    private mutating func checkRequiredValues() throws(StoreError) {
        let schema = schema
        // By position: walking the entities copied each one out.
        guard schema.entities.indices.contains(where: { schema.entities[$0].mayLackRequiredValue })
        else { return }
        for (id, _) in touched { // tidy: ordered the order first touched
            // The model read where it is stored, its entity's attributes by position:
            // `models[id]` copied the model out, the walk each description.
            let missing = models.modify(id) { model -> (entity: String, property: String)? in
                guard let attributes = schema.entity(named: model.entity)?.attributes else {
                    preconditionFailure(
                        "\(model.id) is of undeclared entity '\(model.entity)'")
                }
                // `index(forKey:)`: comparing the value with nil copied it out.
                guard let index = attributes.indices.first(where: {
                    !attributes[$0].isOptional
                        && model.values.index(forKey: attributes[$0].name) == nil
                }) else { return nil }
                return (model.entity, attributes[index].name)
            }
            if let missing = missing ?? nil {
                throw .invalidValue(
                    entity: missing.entity, property: missing.property,
                    reason: "required value missing")
            }
        }
    }
}
