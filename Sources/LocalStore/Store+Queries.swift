/// Reading the store: every answer that is a list comes sorted, never in hashing order.
extension Store {
    public func model(_ id: ModelID) -> Model? {
        storage[id]
    }

    /// The attribute values of a model (`model(id)?.values` without copying the rest of
    /// the model out).
    public func values(of id: ModelID) -> SortedMap<String, AttributeValue>? {
        storage.values(of: id)
    }

    /// The to-one relationships of a model (`model(id)?.toOne` without copying the rest).
    public func toOne(of id: ModelID) -> SortedMap<String, ModelID>? {
        storage.toOne(of: id)
    }

    /// The entity of a model (`model(id)?.entity` without copying the model out).
    public func entity(of id: ModelID) -> String? {
        storage.entity(of: id)
    }

    public func contains(_ id: ModelID) -> Bool {
        storage.contains(id)
    }

    /// Every model, sorted by identifier.
    public var models: [Model] {
        storage.modelsInOrder
    }

    /// Every model's identifier, sorted (no model copied out, as `models` does).
    public var modelIDs: [ModelID] {
        storage.sortedIDs
    }

    /// The number of models of every entity.
    public var modelCount: Int {
        storage.count
    }

    /// The models of one entity, sorted by identifier.
    public func models(of entity: String) -> [Model] {
        storage.filter { $0.entity == entity }
    }

    /// The models of one entity whose attributes have all the values of `filter`, sorted by
    /// identifier. An empty filter matches every model of the entity; a filter naming an
    /// attribute the entity lacks matches none.
    public func models(of entity: String, where filter: [String: AttributeValue]) -> [Model] {
        models(of: entity).filter { $0.matches(filter) }
    }

    /// The number of models of one entity whose attributes have all the values of `filter`.
    public func count(of entity: String, where filter: [String: AttributeValue] = [:]) -> Int {
        var count = 0
        storage.forEachInOrder { model in
            if model.entity == entity && model.matches(filter) { count += 1 }
        }
        return count
    }

    /// The models whose to-one relationship `relationship` points at `target` (the to-many
    /// side), sorted.
    public func models(
        pointingAt target: ModelID,
        through relationship: String,
        of entity: String
    ) -> [ModelID] {
        storage
            .filter { $0.entity == entity && $0.toOne[relationship] == target }
            .map(\.id)
    }

    /// The models a relationship of a model leads to, sorted, whichever way it is kept: a
    /// to-one pointer, a to-many side derived from its to-one inverse, or a stored to-many.
    /// Empty for a model that does not exist.
    public func relatedModels(of id: ModelID, relationship name: String) -> [ModelID] {
        guard let model = storage[id] else { return [] }
        let entity = schema.entity(named: model.entity)
        guard let relationship = entity?.relationship(named: name) else {
            preconditionFailure("entity '\(model.entity)' has no relationship '\(name)'")
        }
        if !relationship.isToMany {
            return model.toOne[name].map { [$0] } ?? []
        }
        if let inverse = schema.inverse(of: relationship, in: model.entity), !inverse.isToMany {
            return models(pointingAt: id, through: inverse.name, of: relationship.destination)
        }
        return model.toMany[name] ?? []
    }

    /// History entries after a position, oldest first.
    public func history(after position: Int64) -> [HistoryEntry] {
        let entries = entries
        let low = Self.firstEntryIndex(in: entries, after: position)
        // Nothing new (most reads), or every entry kept: no copy of the entries made
        // (copying them element by element costs even when there are none).
        if low == entries.count { return [] }
        if low == 0 { return entries }
        return Array(entries[low...])
    }

    /// History entries after a position, oldest first, where the store keeps them: a reader
    /// that only walks them copies nothing (`history(after:)` copies the entries after the
    /// position into a new array: an allocation and a retain of every entry's author and
    /// changes).
    ///
    /// The slice keeps the store's indices: walk it through its own `indices`.
    public func historySlice(after position: Int64) -> ArraySlice<HistoryEntry> {
        // The list taken once, for the search and the slice: read through the storage
        // twice, it was retained for each.
        let entries = entries
        return entries[Self.firstEntryIndex(in: entries, after: position)...]
    }

    /// How many of the newest entries `firstEntryIndex` looks at one by one.
    private static var entriesWalkedBack: Int { 4 }

    /// The index in `entries` of the first entry after a position (`entries.count` when
    /// there is none).
    private static func firstEntryIndex(in entries: [HistoryEntry], after position: Int64) -> Int {
        // Most readers have seen every entry: the newest is looked at first.
        let count = entries.count
        if count == 0 || entries[count - 1].position <= position { return count }
        // Most others missed the newest few (a save or two): walked back from the end first,
        // where a search over the whole history took a dozen halvings.
        var newer = count - 1
        let lowestWalked = max(0, count - Self.entriesWalkedBack)
        while newer > lowestWalked {
            if entries[newer - 1].position <= position { return newer }
            newer -= 1
        }
        // Entries are kept in position order (`newer` is after the position): a binary search.
        var low = 0
        var high = newer
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].position <= position {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// The position of the newest history entry ever saved (0 when none was).
    ///
    /// It does not go back when the history is discarded (`lose`, `rebuild`), so a reader's
    /// position stays meaningful: the next entry comes after it.
    public var lastHistoryPosition: Int64 {
        newestHistoryPosition
    }
}
