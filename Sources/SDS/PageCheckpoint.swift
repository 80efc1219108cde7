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
    /// Of the record table, the entries at the touched names (their bindings and change
    /// tags): closed over the bindings, they hold every binding of a touched model too.
    private let records: [(name: String, model: ModelID?, changeTag: String?)]
    private let pending: [ModelID: PendingChange]
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
        for record in records where data.model(forRecord: record.recordName) != nil {
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
        // Closing over the bindings keeps the record table's entries on the way: each touched
        // key is looked up once.
        var keptRecords: [(name: String, model: ModelID?, changeTag: String?)] = []
        var namesToVisit = Array(touchedNames)
        var idsToVisit = Array(touchedIDs)
        while !namesToVisit.isEmpty || !idsToVisit.isEmpty {
            for name in namesToVisit { // tidy: ordered into a list and a set, each restored by key
                guard let entry = data.records.entry(named: name) else { continue }
                keptRecords.append((name, entry.model, entry.changeTag))
                if let id = entry.model, touchedIDs.insert(id).inserted { idsToVisit.append(id) }
            }
            namesToVisit = []
            for id in idsToVisit { // tidy: ordered into a set, read by key
                guard let name = data.recordName(of: id) else { continue }
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
        self.records = keptRecords
        var keptPending: [ModelID: PendingChange] = [:]
        if !data.pending.isEmpty {
            for id in touchedIDs { // tidy: ordered into a map, read by key
                if let change = data.pending[id] { keptPending[id] = change }
            }
        }
        pending = keptPending
        pendingDeletions = kept(data.pendingDeletions, at: touchedNames)
        recordZones = kept(data.recordZones, at: touchedNames)
        skippedDeletions = kept(data.skippedDeletions, at: touchedNames)
        skippedRules = kept(data.skippedRules, at: touchedNames)
        unanswered = kept(data.unanswered, at: touchedNames)
        uploadedMoves = kept(data.uploadedMoves, at: touchedNames)
        var rest = data
        rest.records = RecordTable()
        rest.pending = [:]
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
        // The record table: every binding and tag at a touched key goes, then the kept
        // entries come back (the touched keys are closed over the bindings, so no binding
        // of an untouched key is lost).
        swap(&data.records, &context.syncData.records)
        for id in touchedIDs { data.records.unbind(id) } // tidy: ordered each key cleared independently, order cannot matter
        for name in touchedNames { // tidy: ordered each key cleared independently, order cannot matter
            if let id = data.records.model(named: name) { data.records.unbind(id) }
            data.records.setChangeTag(nil, for: name)
        }
        for entry in records {
            if let id = entry.model { data.records.bind(id, to: entry.name) }
            if let tag = entry.changeTag { data.records.setChangeTag(tag, for: entry.name) }
        }
        swap(&data.pending, &context.syncData.pending)
        for id in touchedIDs { data.pending[id] = pending[id] } // tidy: ordered each key set independently, order cannot matter
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
