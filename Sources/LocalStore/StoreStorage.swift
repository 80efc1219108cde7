/// The stored fields of a `Store`.
struct StoreFields: Hashable, Sendable {
    let schema: Schema
    var storage = ModelTable()
    var nextModelRawValue: UInt64 = 1
    var entries: [HistoryEntry] = []
    var newestHistoryPosition: Int64 = 0
    var generation: Int = 0
    var historyDiscardedThrough: Int64 = 0
    var batchDeletions: [BatchDeletionEntry] = []
    var newestBatchToken: HistoryToken?
}

/// A store's fields behind one reference, copied on write (`Store.makeUnique`).
///
/// `@unchecked Sendable`: its fields change only through a store holding the only reference
/// (a shared one is copied first), so no two threads ever see it change. `@exclusivity
/// (unchecked)`: every access goes through `Store`'s accessors, which call nothing that
/// could reach the same storage while they read or change it, so the runtime check could
/// never fire (as on `CloudService`'s hot properties).
final class StoreStorage: @unchecked Sendable {
    @exclusivity(unchecked) var fields: StoreFields
    /// The emptied list of touched models of this storage's last save, kept for the next
    /// (`SaveDraft.touched`): a save then allocates no list of its own. Not a field: it
    /// never reaches equality, hashing or a copy.
    @exclusivity(unchecked) var spareTouched: [(id: ModelID, original: Model?)] = []

    init(_ fields: StoreFields) {
        self.fields = fields
    }

    /// The storage of every store of no entities (never changed: a change copies it first).
    static let empty = StoreStorage(StoreFields(schema: Schema(entities: [])))
}
