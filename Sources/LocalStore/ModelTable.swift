/// The models of a store, by identifier: a dense array of slots for the identifiers the
/// counter hands out, and a hash table for the few that fall outside it.
///
/// A store's identifiers come from a counter (`Store.makeModelID()`), so most models sit in
/// `slots`, slot `i` holding the model `base + i` (nil for a hole: a deleted model, or an
/// identifier reserved and never inserted). That holds each `Model` inline, in far less room
/// than a `[ModelID: Model]`, whose buckets are kept partly empty.
///
/// Identifiers that do not fit the slots go to `overflow`: one below `base` (an identifier
/// given explicitly), and the models left in a range that became mostly holes. Every
/// identifier in `overflow` is below `base`, so the slots can always grow upwards, and the
/// models in identifier order are `overflow`'s, sorted, then the slots'.
///
/// Holes are bounded: trailing ones are dropped at once, and when the live models fill less
/// than a quarter of 64 slots or more, the leading holes go and, unless that leaves the
/// slots half full, the slots' models move to `overflow` (each model moves there once at
/// most, so the moves cost O(1) a model overall). An identifier so far above the slots that
/// reaching it would leave them less than a quarter full starts new slots the same way. So
/// the slots in use never number more than 64 or four times their models.
///
/// Equality and hashing are those of the set of models (two tables laid out differently but
/// holding the same models are equal), and every reader walks the models in identifier
/// order, so the layout never reaches an answer.
struct ModelTable: Hashable, Sendable {
    /// Slot `i` holds the model `base + i`.
    private var slots: [Model?] = []
    private var base: UInt64 = 0
    /// The models in `slots`.
    private(set) var slottedCount = 0
    /// Models whose identifiers are below `base`. Made with `init()`: the literal was built
    /// from an (empty) list of pairs, for every empty table (one a save).
    private var overflow: [ModelID: Model] = Dictionary()

    /// The number of slots below which holes are never compacted (nor gaps refused).
    private static let compactionFloor = 64

    init() {}

    /// The number of models.
    var count: Int { slottedCount + overflow.count }

    var isEmpty: Bool { count == 0 }

    /// The slots in use, holes included (for the tests of the bound on holes).
    var slotCount: Int { slots.count }

    private var end: UInt64 { base + UInt64(slots.count) }

    private func slotIndex(of id: ModelID) -> Int? {
        let raw = id.rawValue
        guard raw >= base, raw < end else { return nil }
        return Int(raw - base)
    }

    subscript(id: ModelID) -> Model? {
        get {
            if let index = slotIndex(of: id) { return slots[index] }
            return overflow.isEmpty ? nil : overflow[id]
        }
        set {
            if let newValue {
                precondition(newValue.id == id, "storing \(newValue.id) as \(id)")
                store(newValue)
            } else {
                _ = removeValue(forKey: id)
            }
        }
    }

    /// Whether a model has this identifier, answered without copying the model out (issue
    /// 19: `self[id] != nil` retained and released every reference the model holds).
    func contains(_ id: ModelID) -> Bool {
        if let index = slotIndex(of: id) {
            guard case .some = slots[index] else { return false }
            return true
        }
        return !overflow.isEmpty && overflow.index(forKey: id) != nil
    }

    /// What `field` reads of a model, read where the model is stored: only that is copied
    /// out, not the whole model (its entity name and three maps), as `self[id]?.…` did.
    @inline(__always)
    private func read<Field>(_ id: ModelID, _ field: (Model) -> Field) -> Field? {
        if let index = slotIndex(of: id) { return slots[index].map(field) }
        return overflow.isEmpty ? nil : overflow[id].map(field)
    }

    /// The attribute values of a model (`read`).
    func values(of id: ModelID) -> SortedMap<String, AttributeValue>? { read(id) { $0.values } }

    /// The to-one relationships of a model (`read`).
    func toOne(of id: ModelID) -> SortedMap<String, ModelID>? { read(id) { $0.toOne } }

    /// The entity of a model (`read`).
    func entity(of id: ModelID) -> String? { read(id) { $0.entity } }

    /// `Model.changedKeys(since:)` of the model stored now (`read`); nil when there is none.
    func changedKeys(of id: ModelID, since before: Model) -> [String]? {
        read(id) { $0.changedKeys(since: before) }
    }

    /// `changedKeys(of:since:)` through the table's mutable access, which reads the model
    /// where it is: `read` and its closure copied both models (every reference retained).
    mutating func changedKeysInPlace(of id: ModelID, since before: Model) -> [String]? {
        if let index = slotIndex(of: id) {
            guard case .some = slots[index] else { return nil }
            return slots[index]!.changedKeysInPlace(since: before)
        }
        guard !overflow.isEmpty, overflow.index(forKey: id) != nil else { return nil }
        return overflow[id]!.changedKeysInPlace(since: before)
    }

    /// Changes a model in place, so that its dictionaries are not copied when the table holds
    /// the only reference to them. Nil (and `body` not called) when there is no such model.
    mutating func modify<Result>(
        _ id: ModelID,
        _ body: (inout Model) throws -> Result
    ) rethrows -> Result? {
        // The identifier is checked during the change: reading it afterwards through the
        // optional would copy the whole model out (retains and releases on every write).
        func checked(_ model: inout Model) throws -> Result {
            let result = try body(&model)
            precondition(model.id == id, "a model's identifier changed in place")
            return result
        }
        if let index = slotIndex(of: id) {
            guard case .some = slots[index] else { return nil }
            return try checked(&slots[index]!)
        }
        guard !overflow.isEmpty, overflow.index(forKey: id) != nil else { return nil }
        return try checked(&overflow[id]!)
    }

    /// Makes room for `inserts` more models above the slots in one allocation when the
    /// array's doubling would not (a save inserting many models, like a first download's).
    mutating func reserveCapacity(forInserts inserts: Int) {
        let needed = slots.count + inserts
        if needed > 2 * slots.capacity {
            slots.reserveCapacity(needed)
        }
    }

    /// Consumes the model: stored as it is passed, not copied (a copy would retain its
    /// references, then release the caller's, on every write of a save).
    private mutating func store(_ model: consuming Model) {
        let raw = model.id.rawValue
        if let index = slotIndex(of: model.id) {
            if slots[index] == nil { slottedCount += 1 }
            slots[index] = model
            return
        }
        if raw < base {
            overflow[model.id] = model
            return
        }
        // At or above the end of the slots (or none yet). A gap that would leave the slots
        // less than a quarter full starts new ones instead.
        let gap = raw - end
        let extended = UInt64(slots.count) + gap + 1
        if slots.isEmpty
            || extended > max(UInt64(Self.compactionFloor), 4 * UInt64(slottedCount + 1)) {
            moveSlotsToOverflow()
            base = raw
        } else if gap > 0 {
            // Hole by hole into room made once (doubling at least, as appends grow):
            // appending a `repeatElement` goes through the generic sequence path.
            let needed = slots.count + Int(gap) + 1
            if needed > slots.capacity {
                slots.reserveCapacity(Swift.max(needed, 2 * slots.capacity))
            }
            for _ in 0..<gap { slots.append(nil) }
        }
        slots.append(model)
        slottedCount += 1
    }

    /// Removes a model and returns it (nil when there was none).
    @discardableResult
    mutating func removeValue(forKey id: ModelID) -> Model? {
        guard let index = slotIndex(of: id) else {
            return overflow.isEmpty ? nil : overflow.removeValue(forKey: id)
        }
        guard let model = slots[index] else { return nil }
        slots[index] = nil
        slottedCount -= 1
        while case .some(.none) = slots.last {
            slots.removeLast()
        }
        if slots.count >= Self.compactionFloor && slottedCount * 4 < slots.count {
            compact()
        }
        return model
    }

    /// Drops the leading holes; unless that leaves the slots at least half full, their
    /// models move to `overflow`. Trailing holes are already gone. Either way it takes as
    /// many removals again (a quarter of the slots at least) before the next compaction, so
    /// a run of removals from the front costs O(1) a removal, not a move of every slot each.
    private mutating func compact() {
        if let first = slots.firstIndex(where: { $0 != nil }), first > 0 {
            slots.removeFirst(first)
            base += UInt64(first)
        }
        if slottedCount * 2 < slots.count {
            moveSlotsToOverflow()
        }
    }

    /// Empties the slots into `overflow`; `base` moves to their end, so every identifier in
    /// `overflow` stays below it.
    private mutating func moveSlotsToOverflow() {
        guard !slots.isEmpty else { return }
        for case let model? in slots {
            overflow[model.id] = model
        }
        base = end
        slots = []
        slottedCount = 0
    }

    /// Every model in identifier order.
    func forEachInOrder(_ body: (Model) throws -> Void) rethrows {
        if !overflow.isEmpty {
            for id in overflow.keys.sorted() {
                guard let model = overflow[id] else { preconditionFailure("\(id) vanished") }
                try body(model)
            }
        }
        for case let model? in slots {
            try body(model)
        }
    }

    /// Calls `body` with the identifier, entity and relationships of every model that has
    /// one set, in identifier order (the few models outside the slots are all handed over,
    /// with or without). The slots are read where they are stored: a walk of the models
    /// copied each one whole (its values too, every reference retained and released).
    func forEachRelatedInOrder(
        _ body: (ModelID, String, SortedMap<String, ModelID>, SortedMap<String, [ModelID]>)
            -> Void
    ) {
        if !overflow.isEmpty {
            for id in overflow.keys.sorted() {
                guard let model = overflow[id] else { preconditionFailure("\(id) vanished") }
                body(model.id, model.entity, model.toOne, model.toMany)
            }
        }
        slots.withUnsafeBufferPointer { slots in
            for index in slots.indices {
                guard let hasNone = slots[index]?.hasNoRelationships, !hasNone else { continue }
                let model = slots.baseAddress.unsafelyUnwrapped + index
                body(
                    model.pointee.unsafelyUnwrapped.id, model.pointee.unsafelyUnwrapped.entity,
                    model.pointee.unsafelyUnwrapped.toOne, model.pointee.unsafelyUnwrapped.toMany)
            }
        }
    }

    /// Every model, sorted by identifier.
    var modelsInOrder: [Model] {
        var models: [Model] = []
        models.reserveCapacity(count)
        forEachInOrder { models.append($0) }
        return models
    }

    /// Every identifier, sorted.
    var sortedIDs: [ModelID] {
        var ids: [ModelID] = []
        ids.reserveCapacity(count)
        if !overflow.isEmpty { ids.append(contentsOf: overflow.keys.sorted()) }
        // Slot `i` holds `base + i`: only whether it is taken is read, no model copied out.
        // Matched, not compared with nil: the comparison copied each model out.
        for index in slots.indices {
            guard case .some = slots[index] else { continue }
            ids.append(ModelID(base + UInt64(index)))
        }
        return ids
    }

    /// The models for which `isIncluded` is true, in identifier order.
    func filter(_ isIncluded: (Model) throws -> Bool) rethrows -> [Model] {
        var models: [Model] = []
        try forEachInOrder { model in
            if try isIncluded(model) { models.append(model) }
        }
        return models
    }

    static func == (lhs: ModelTable, rhs: ModelTable) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.base == rhs.base && lhs.slots.count == rhs.slots.count
            && lhs.overflow.isEmpty && rhs.overflow.isEmpty {
            return lhs.slots == rhs.slots
        }
        return lhs.modelsInOrder == rhs.modelsInOrder
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        forEachInOrder { hasher.combine($0) }
    }
}

extension Model {
    /// `changedKeys(since:)`, called through mutable access (`ModelTable.changedKeysInPlace`);
    /// changes nothing.
    fileprivate mutating func changedKeysInPlace(since before: Model) -> [String] {
        changedKeys(since: before)
    }
}
