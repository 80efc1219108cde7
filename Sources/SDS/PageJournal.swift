import CloudSim
import Kernel
import LocalStore
import SyncContract

/// What storing one downloaded page changed in the sync data before its save, noted as it
/// changes, so that a page the store refuses can be undone (DL-4) at the cost of what the
/// page changed, not of everything the device holds.
///
/// Keeping the whole context (`let before = context`) would be simplest, but then every
/// page's first change of the store or of an N-sized map of the sync data copies it (copy on
/// write), and a first download of N records costs O(N²). Keeping, before the page, the
/// entries at every key the page could touch (the page's names, the random names it might
/// draw, the identifiers it might insert, closed over the bindings) means working them out
/// with sets, lookups and hashes of names and a copy of the sync data, on every page, for a
/// save the store almost never refuses. Instead:
/// - every change `SDSEngine.store` makes to the sync data before the save goes through
///   this journal, which notes the entry as it was before changing it (an append, no
///   lookup it would not make anyway);
/// - the store leaves itself unchanged when it refuses a save; only the identifiers reserved
///   for the page's new models are given back (`Store.releaseModelIDs(since:)`);
/// - the generator of random record names (LIM-2) is a small value, kept whole.
///
/// Undoing replays the notes backwards, so each entry gets back the value it had before the
/// page's first change of it. Of the record table, the entries of every name a change
/// touched are noted (the name bound or tagged, and the name the bound model leaves); a
/// binding changes only at those names and at the models bound to them, so clearing those
/// and putting the first notes back restores the table exactly. Debug builds check that
/// undoing gives back exactly the context as it was (SDSEngine.store).
struct PageJournal {
    private let idMark: UInt64
    private let names: Xoshiro256StarStar
    /// The record table's entries as they were before a change at their name (a name noted
    /// again later keeps its first note at undo); their models are the models whose binding
    /// changed (read from here at undo, not kept in a list of their own).
    private var records: [(name: String, model: ModelID?, changeTag: String?)] = []
    /// How many notes the page may make (one per deletion; more grow the room): room for
    /// them is made at the first, not grown note by note (1, 2, 4, … a reallocation each).
    private let expectedNotes: Int
    /// Changes of the maps the page writes by key, each with the value before it.
    private var entries: [Entry] = []

    private enum Entry {
        case pending(ModelID, PendingChange?)
        case pendingDeletion(String, PendingDeletion?)
        case recordZone(String, ZoneID?)
        case skippedDeletion(String, String?)
        case skippedRule(String, String?)
        case unanswered(String, UnansweredUpload?)
        case uploadedMove(String, String?)
    }

    /// A journal for a page about to be stored in `context`, of `items` records and deletions
    /// (none given: the notes' room grows as they come).
    init(context: SDSContext, items: Int = 0) {
        idMark = context.store.modelIDMark
        names = context.names
        expectedNotes = items
    }

    // MARK: Changes

    /// Binds a model to a record name (SDSSyncData.bind), noting both names it touches.
    mutating func bind(_ model: ModelID, to name: String, in data: inout SDSSyncData) {
        note(name, of: data)
        if let previous = data.recordName(of: model), previous != name { note(previous, of: data) }
        data.bind(model, to: name)
    }

    /// Binds a model made for the page (an identifier reserved since the journal began) to a
    /// record name; one no model is bound to (`nameIsFree`, most of them) without a note:
    /// undoing unbinds every identifier reserved since (`restore`), which leaves the name's
    /// entry as the bind found it (the bind changed only its model, and a later change at the
    /// name is noted with the model). A name held by a model goes through `bind`.
    mutating func bindNewModel(
        _ model: ModelID, to name: String, nameIsFree: Bool, in data: inout SDSSyncData
    ) {
        guard nameIsFree else {
            bind(model, to: name, in: &data)
            return
        }
        assert(model.rawValue >= idMark && data.model(forRecord: name) == nil
               && data.recordName(of: model) == nil, "sds: not a new model to a free name")
        data.bind(model, to: name)
    }

    /// Forgets a model's binding (SDSSyncData.unbind), noting the name it leaves.
    mutating func unbind(_ model: ModelID, in data: inout SDSSyncData) {
        guard let name = data.recordName(of: model) else { return }
        note(name, of: data)
        data.unbind(model)
    }

    /// Sets or forgets a record's change tag (SDSSyncData.setChangeTag).
    mutating func setChangeTag(_ tag: String?, for name: String, in data: inout SDSSyncData) {
        note(name, of: data)
        data.setChangeTag(tag, for: name)
    }

    mutating func setPending(
        _ change: PendingChange?, for id: ModelID, in data: inout SDSSyncData
    ) {
        entries.append(.pending(id, data.pending[id]))
        data.pending[id] = change
    }

    mutating func removePendingDeletion(_ name: String, in data: inout SDSSyncData) {
        guard !data.pendingDeletions.isEmpty else { return }
        entries.append(.pendingDeletion(name, data.pendingDeletions.removeValue(forKey: name)))
    }

    mutating func removeRecordZone(_ name: String, in data: inout SDSSyncData) {
        guard !data.recordZones.isEmpty else { return }
        entries.append(.recordZone(name, data.recordZones.removeValue(forKey: name)))
    }

    mutating func setSkippedDeletion(_ type: String, for name: String, in data: inout SDSSyncData) {
        entries.append(.skippedDeletion(name,
            data.skippedDeletions.updateValue(type, forKey: name)))
    }

    mutating func setSkippedRule(_ rule: String, for name: String, in data: inout SDSSyncData) {
        entries.append(.skippedRule(name, data.skippedRules.updateValue(rule, forKey: name)))
    }

    /// Removes and returns the unanswered save of a record.
    mutating func removeUnanswered(
        _ name: String, in data: inout SDSSyncData
    ) -> UnansweredUpload? {
        guard !data.unanswered.isEmpty else { return nil }
        let removed = data.unanswered.removeValue(forKey: name)
        entries.append(.unanswered(name, removed))
        return removed
    }

    /// Removes and returns the change tag of a record's uploaded move (LIM-3).
    mutating func removeUploadedMove(_ name: String, in data: inout SDSSyncData) -> String? {
        guard !data.uploadedMoves.isEmpty else { return nil }
        let removed = data.uploadedMoves.removeValue(forKey: name)
        entries.append(.uploadedMove(name, removed))
        return removed
    }

    /// Notes a name's entry of the record table before a change at it.
    ///
    /// A name just noted is not noted again (a deletion's tag, then its model): undoing puts
    /// back each name's first note, and clears every model bound at a noted name.
    private mutating func note(_ name: String, of data: SDSSyncData) {
        if let last = records.last, last.name == name { return }
        let entry = data.records.entry(named: name)
        if records.isEmpty { records.reserveCapacity(expectedNotes) }
        records.append((name, entry?.model, entry?.changeTag))
    }

    // MARK: Undoing

    /// Puts the context back as it was when the journal began; the store must have refused
    /// the page's save (it is unchanged but for the identifiers reserved).
    func restore(_ context: inout SDSContext) {
        let reservedUpTo = context.store.modelIDMark
        context.store.releaseModelIDs(since: idMark)
        context.names = names
        // The record table: every binding at a touched name or model goes, then each name's
        // first note comes back (the entry as it was before the page).
        for entry in records {
            if let model = entry.model { context.syncData.unbind(model) }
        }
        for entry in records {
            if let model = context.syncData.model(forRecord: entry.name) {
                context.syncData.unbind(model)
            }
            context.syncData.setChangeTag(nil, for: entry.name)
        }
        var restored: Set<String> = []
        for entry in records where restored.insert(entry.name).inserted {
            if let model = entry.model { context.syncData.bind(model, to: entry.name) }
            if let tag = entry.changeTag { context.syncData.setChangeTag(tag, for: entry.name) }
        }
        // The models made for the page lose their names (`bindNewModel`), last: a name's
        // first note may be of its new model.
        for raw in idMark ..< reservedUpTo { context.syncData.unbind(ModelID(raw)) }
        // The maps: backwards, so each key ends with the value before the page's first change.
        for entry in entries.reversed() {
            switch entry {
            case .pending(let id, let change): context.syncData.pending[id] = change
            case .pendingDeletion(let name,
                let deletion): context.syncData.pendingDeletions[name] = deletion
            case .recordZone(let name, let zone): context.syncData.recordZones[name] = zone
            case .skippedDeletion(let name,
                let type): context.syncData.skippedDeletions[name] = type
            case .skippedRule(let name, let rule): context.syncData.skippedRules[name] = rule
            case .unanswered(let name, let upload): context.syncData.unanswered[name] = upload
            case .uploadedMove(let name, let tag): context.syncData.uploadedMoves[name] = tag
            }
        }
    }
}
