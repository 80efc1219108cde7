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
    private let recordNames: [ModelID: String?]
    private let pending: [ModelID: PendingChange?]
    private let models: [String: ModelID?]
    private let changeTags: [String: String?]
    private let pendingDeletions: [String: PendingDeletion?]
    private let recordZones: [String: ZoneID?]
    private let skippedDeletions: [String: String?]
    private let skippedRules: [String: String?]
    private let unanswered: [String: UnansweredUpload?]
    private let uploadedMoves: [String: String?]

    init(
        records: [CloudRecord], deletions: [RecordDeletion], resolution: PageResolution,
        context: SDSContext
    ) {
        let data = context.syncData
        var touchedNames = Set(records.map(\.recordName)).union(deletions.map(\.recordName))
        // LIM-2 draws a random name for an app's model bound to a record name of the page.
        var draws = context
        for record in records where data.models[record.recordName] != nil {
            touchedNames.insert(draws.makeRandomRecordName())
        }
        var touchedIDs = Set(resolution.targets.values)
        let mark = context.store.modelIDMark
        // The models this page may insert get identifiers from the mark on.
        for offset in 0..<UInt64(records.count) {
            touchedIDs.insert(ModelID(mark + offset))
        }
        var namesToVisit = Array(touchedNames)
        var idsToVisit = Array(touchedIDs)
        while !namesToVisit.isEmpty || !idsToVisit.isEmpty {
            for name in namesToVisit {
                if let id = data.models[name], touchedIDs.insert(id).inserted { idsToVisit.append(id) }
            }
            namesToVisit = []
            for id in idsToVisit {
                if let name = data.recordNames[id], touchedNames.insert(name).inserted {
                    namesToVisit.append(name)
                }
            }
            idsToVisit = []
        }
        func kept<Key, Value>(_ map: [Key: Value], at keys: Set<Key>) -> [Key: Value?] {
            var result: [Key: Value?] = [:]
            for key in keys { result[key] = .some(map[key]) } // tidy: ordered into a map, read by key
            return result
        }
        idMark = mark
        names = context.names
        recordNames = kept(data.recordNames, at: touchedIDs)
        var keptPending: [ModelID: PendingChange?] = [:]
        for id in touchedIDs { keptPending[id] = .some(data.pending[id]) } // tidy: ordered into a map, read by key
        pending = keptPending
        models = kept(data.models, at: touchedNames)
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
        func put<Key, Value>(_ saved: [Key: Value?], into map: inout [Key: Value]) {
            for (key, value) in saved { map[key] = value } // tidy: ordered each key set independently, order cannot matter
        }
        swap(&data.recordNames, &context.syncData.recordNames)
        put(recordNames, into: &data.recordNames)
        swap(&data.pending, &context.syncData.pending)
        for (id, change) in pending { data.pending[id] = change } // tidy: ordered each key set independently, order cannot matter
        swap(&data.models, &context.syncData.models)
        put(models, into: &data.models)
        swap(&data.changeTags, &context.syncData.changeTags)
        put(changeTags, into: &data.changeTags)
        swap(&data.pendingDeletions, &context.syncData.pendingDeletions)
        put(pendingDeletions, into: &data.pendingDeletions)
        swap(&data.recordZones, &context.syncData.recordZones)
        put(recordZones, into: &data.recordZones)
        swap(&data.skippedDeletions, &context.syncData.skippedDeletions)
        put(skippedDeletions, into: &data.skippedDeletions)
        swap(&data.skippedRules, &context.syncData.skippedRules)
        put(skippedRules, into: &data.skippedRules)
        swap(&data.unanswered, &context.syncData.unanswered)
        put(unanswered, into: &data.unanswered)
        swap(&data.uploadedMoves, &context.syncData.uploadedMoves)
        put(uploadedMoves, into: &data.uploadedMoves)
        context.syncData = data
    }
}
