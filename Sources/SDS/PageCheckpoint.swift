import CloudSim
import Kernel
import LocalStore
import SyncContract

/// What storing one downloaded page can change, kept so that a page the store refuses can be
/// undone (DL-4) at the cost of the page, not of everything the device holds.
///
/// Keeping the whole context (`let before = context`) would be simplest, but then every
/// page's first change of the store or of an N-sized map of the sync data copies it (copy on
/// write), and a first download of N records costs O(N²). Instead:
/// - the store leaves itself unchanged when it refuses a save; only the identifiers reserved
///   for the page's new models are given back (`Store.releaseModelIDs(since:)`);
/// - the generator of random record names is a small value, kept whole;
/// - the sync data are kept whole except the maps the page changes by key, which are taken
///   out of the copy (so the live ones stay uniquely held and change in place); of those,
///   only the entries at the keys the page can touch are kept.
///
/// The keys the page can touch: the names of its records and deletions, the random names it
/// may draw (LIM-2), the models bound to any of those names or given one by the resolution,
/// the models the page inserts, and, closing over the bindings, every name bound to one of
/// those models and every model bound to one of those names (`bind` and `unbind` touch only
/// the entries of their arguments and of what those are bound to). Debug builds check that
/// undoing gives back exactly the context as it was (SDSEngine.store).
struct PageCheckpoint {
    private let idMark: UInt64
    private let names: Xoshiro256StarStar
    /// The sync data without the maps kept by key.
    private var syncData: SDSSyncData
    /// The keys the page can touch; a map's entries at them are restored, absent ones removed.
    private let touchedNames: [String]
    private let touchedIDs: [ModelID]
    /// Of each map kept by key, its entries at the touched keys that were present (most of
    /// these maps are empty or sparse, and a page's records are mostly new to some of them:
    /// keeping every touched key with an optional value cost a hashed insert per key and map).
    private let recordNames: [ModelID: String]
    private let pending: [ModelID: PendingChange]
    private let models: [String: ModelID]
    private let changeTags: [String: String]
    private let pendingDeletions: [String: PendingDeletion]
    private let recordZones: [String: ZoneID]
    private let skippedDeletions: [String: String]
    private let skippedRules: [String: String]
    private let unanswered: [String: UnansweredUpload]
    private let uploadedMoves: [String: String]

    init(
        records: [CloudRecord], deletions: [RecordDeletion], resolution: PageResolution,
        context: SDSContext
    ) {
        let data = context.syncData
        var touchedNames = Set(records.map(\.recordName)).union(deletions.map(\.recordName))
        // LIM-2 draws a random name for an app's model bound to a record name of the page,
        // when the record does not go to a model of the store by the resolution (`prepare`:
        // the store does not change before the save, so which records those are is known
        // now). The page draws at most that many, the first of this sequence. Drawn from a
        // copy of the generator alone: copying the context cost a retain of everything in it.
        var draws = context.names
        for record in records where data.models[record.recordName] != nil {
            if let target = resolution.targets[record.recordName], context.store.model(target) != nil {
                continue
            }
            touchedNames.insert(SDSContext.randomRecordName(drawingFrom: &draws))
        }
        var touchedIDs = Set(resolution.targets.values)
        let mark = context.store.modelIDMark
        // The models this page may insert get identifiers from the mark on.
        for offset in 0..<UInt64(records.count) {
            touchedIDs.insert(ModelID(mark + offset))
        }
        // Closing over the bindings keeps the entries of both binding maps on the way: each
        // touched key is looked up in them once.
        var keptModels: [String: ModelID] = [:]
        var keptRecordNames: [ModelID: String] = [:]
        var namesToVisit = Array(touchedNames)
        var idsToVisit = Array(touchedIDs)
        while !namesToVisit.isEmpty || !idsToVisit.isEmpty {
            for name in namesToVisit { // tidy: ordered into a map and a set, read by key
                guard let id = data.models[name] else { continue }
                keptModels[name] = id
                if touchedIDs.insert(id).inserted { idsToVisit.append(id) }
            }
            namesToVisit = []
            for id in idsToVisit { // tidy: ordered into a map and a set, read by key
                guard let name = data.recordNames[id] else { continue }
                keptRecordNames[id] = name
                if touchedNames.insert(name).inserted { namesToVisit.append(name) }
            }
            idsToVisit = []
        }
        func kept<Key, Value>(_ map: [Key: Value], at keys: Set<Key>) -> [Key: Value] {
            var result: [Key: Value] = [:]
            guard !map.isEmpty else { return result }
            for key in keys { // tidy: ordered into a map, read by key
                if let value = map[key] { result[key] = value }
            }
            return result
        }
        idMark = mark
        names = context.names
        self.touchedNames = Array(touchedNames)
        self.touchedIDs = Array(touchedIDs)
        recordNames = keptRecordNames
        var keptPending: [ModelID: PendingChange] = [:]
        if !data.pending.isEmpty {
            for id in touchedIDs { // tidy: ordered into a map, read by key
                if let change = data.pending[id] { keptPending[id] = change }
            }
        }
        pending = keptPending
        models = keptModels
        changeTags = kept(data.changeTags, at: touchedNames)
        pendingDeletions = kept(data.pendingDeletions, at: touchedNames)
        recordZones = kept(data.recordZones, at: touchedNames)
        skippedDeletions = kept(data.skippedDeletions, at: touchedNames)
        skippedRules = kept(data.skippedRules, at: touchedNames)
        unanswered = kept(data.unanswered, at: touchedNames)
        uploadedMoves = kept(data.uploadedMoves, at: touchedNames)
        var rest = data
        rest.recordNames = [:]
        rest.pending = [:]
        rest.models = [:]
        rest.changeTags = [:]
        rest.pendingDeletions = [:]
        rest.recordZones = [:]
        rest.skippedDeletions = [:]
        rest.skippedRules = [:]
        rest.unanswered = [:]
        rest.uploadedMoves = [:]
        syncData = rest
    }

    /// Puts the context back as it was when the checkpoint was taken; the store must have
    /// refused the page's save (it is unchanged but for the identifiers reserved).
    func restore(_ context: inout SDSContext) {
        context.store.releaseModelIDs(since: idMark)
        context.names = names
        var data = syncData
        func put<Key, Value>(_ saved: [Key: Value], at keys: [Key], into map: inout [Key: Value]) {
            for key in keys { map[key] = saved[key] } // tidy: ordered each key set independently, order cannot matter
        }
        swap(&data.recordNames, &context.syncData.recordNames)
        put(recordNames, at: touchedIDs, into: &data.recordNames)
        swap(&data.pending, &context.syncData.pending)
        for id in touchedIDs { data.pending[id] = pending[id] } // tidy: ordered each key set independently, order cannot matter
        swap(&data.models, &context.syncData.models)
        put(models, at: touchedNames, into: &data.models)
        swap(&data.changeTags, &context.syncData.changeTags)
        put(changeTags, at: touchedNames, into: &data.changeTags)
        swap(&data.pendingDeletions, &context.syncData.pendingDeletions)
        put(pendingDeletions, at: touchedNames, into: &data.pendingDeletions)
        swap(&data.recordZones, &context.syncData.recordZones)
        put(recordZones, at: touchedNames, into: &data.recordZones)
        swap(&data.skippedDeletions, &context.syncData.skippedDeletions)
        put(skippedDeletions, at: touchedNames, into: &data.skippedDeletions)
        swap(&data.skippedRules, &context.syncData.skippedRules)
        put(skippedRules, at: touchedNames, into: &data.skippedRules)
        swap(&data.unanswered, &context.syncData.unanswered)
        put(unanswered, at: touchedNames, into: &data.unanswered)
        swap(&data.uploadedMoves, &context.syncData.uploadedMoves)
        put(uploadedMoves, at: touchedNames, into: &data.uploadedMoves)
        context.syncData = data
    }
}
