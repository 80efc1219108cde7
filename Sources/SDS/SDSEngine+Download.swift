import CloudSim
import Kernel
import LocalStore
import SyncContract

extension SDSEngine {
    /// Decides, before storing, which local model each record of a page goes to: a model
    /// that has its record, a local twin (ADOPT-4 / LIFE-3 / DEL-3 by values, ID-2 by
    /// identity), or a new model. The app can save between this and the store (LIM-2).
    func resolvePage(_ page: DownloadPage, context: inout SDSContext) -> PageResolution {
        var resolution = PageResolution()
        // Sized once for the page (not grown record by record).
        resolution.targets.reserveCapacity(page.records.count)
        // The models whose own record is in the page: the same for every record of it (the
        // loop changes no binding), found once and only for an entity with an identity.
        var ownRecords: Set<ModelID>?
        // Each record read in place (`page.records[index]`): a loop's element was a copy of
        // the whole record (a dozen retains and as many releases), for its name and type.
        for index in page.records.indices {
            // Found first, then appended: the list is not changed while it is read.
            let found = target(of: page.records, at: index, earlier: resolution.targets,
                               ownRecords: &ownRecords, context: context)
            resolution.targets.append(found)
        }
        return resolution
    }

    /// The model the record at `index` of a page's `records` goes to (`resolvePage`), given
    /// the targets of the records before it (`earlier`).
    private func target(
        of records: [CloudRecord], at index: Int, earlier: [PageResolution.Target?],
        ownRecords: inout Set<ModelID>?, context: SDSContext
    ) -> PageResolution.Target? {
        guard let entity = entities.named(records[index].recordType),
              entity.isSynchronized else { return nil }
        let name = records[index].recordName
        if let existing = context.syncData.model(forRecord: name),
           context.store.contains(existing) {
            // (The entity's identity asked first: it needs no lookup.)
            if !entity.identity.isEmpty, context.syncData.pending[existing]?.isInsert == true,
               context.syncData.changeTag(of: name).isNil {
                effects.addTrace(detailed: context.isTracing,
                    kind: "download.identity-matched",
                    details: [TraceField("record", .string(name))],
                    rules: ["ID-2"]
                )
            }
            return PageResolution.Target(model: existing, match: .own)
        }
        if let twin = valueTwin(of: records, at: index, entity: entity, context: context,
                                targets: earlier, ownRecords: &ownRecords) {
            return PageResolution.Target(model: twin, match: .values)
        }
        guard !entity.identity.isEmpty else { return nil }
        let own = ownRecords ?? ownRecordInPage(Set(records.map(\.recordName)), context: context)
        ownRecords = own
        let taken = Set(earlier.compactMap { $0?.model }).union(own)
        guard let twin = identityTwin(of: records[index], entity: entity, context: context,
                                      taken: taken) else { return nil }
        return PageResolution.Target(model: twin, match: .identity)
    }

    /// Stores one downloaded page in a single transaction, as the engine's own author.
    ///
    /// SYNC-4: pending local keys win over downloaded values; SYNC-3: a downloaded deletion
    /// discards the model's pending edit; DL-3: records that reference records not here yet
    /// are kept aside; DL-4: records the store rejects are kept aside too.
    func applyPage(_ page: DownloadPage, resolution: PageResolution, context: inout SDSContext) {
        precondition(resolution.targets.count == page.records.count,
            "sds: a page resolved for another")
        // (Filtered only when a share is among them: a filter copies every record.)
        let isShare = { (record: CloudRecord) in record.recordType == "cloudkit.share" }
        var records = page.records
        var targets = resolution.targets
        if page.records.contains(where: isShare) {
            records = []
            targets = []
            for index in page.records.indices where !isShare(page.records[index]) {
                records.append(page.records[index])
                targets.append(resolution.targets[index])
            }
        }
        let (storable, kept) = recordsToStore(records, context: &context)
        if let kept { targets = kept.map { targets[$0] } }
        if let zone = page.sharedZone {
            traceNameInTwoZones(storable, targets: targets, zone: zone, context: context)
        }
        store(storable, deletions: page.deletions, targets: targets, context: &context)
        if let zone = page.sharedZone {
            for record in storable
                where context.syncData.model(forRecord: record.recordName) != nil {
                context.syncData.recordZones[record.recordName] = zone
            }
        }
        retryAside(context: &context)
    }

    /// The records of a page that can be stored now; the others are kept aside (DL-3). With
    /// them, the positions in `records` of those kept when some are not (nil: all are).
    private func recordsToStore(
        _ records: [CloudRecord], context: inout SDSContext
    ) -> (records: [CloudRecord], kept: [Int]?) {
        // The page's names' hashes, for references to records not stored here: made at the
        // first one.
        var inPage: [Int]?
        // The records kept (and their positions), copied out only once one is left out:
        // usually every record is stored, and `records` itself is the answer (no copy of
        // each record).
        var result: [CloudRecord]?
        var kept: [Int]?
        // Each record read in place (`records[index]`): a loop's element was a copy.
        for index in records.indices {
            if canStoreNow(at: index, of: records, inPage: &inPage, context: &context) {
                result?.append(records[index])
                kept?.append(index)
            } else if result == nil {
                result = Array(records[..<index])
                kept = Array(0..<index)
            }
        }
        return (result ?? records, kept)
    }

    /// Whether the record at `index` of `records` can be stored now (`recordsToStore`),
    /// noting what it settles in the sync data either way.
    ///
    /// The record is read in place (`records[index]`): given as an argument, it was copied
    /// for the call (a dozen retains, and the releases after), once per downloaded record.
    /// It is copied only on the rare paths that hand it on.
    private func canStoreNow(
        at index: Int, of records: [CloudRecord], inPage: inout [Int]?,
        context: inout SDSContext
    ) -> Bool {
        // (`skipsHere` answers false at once when this process synchronizes the full schema.)
        if !synchronizesFullSchema,
           skipsHere(records[index], context: &context) {
            return false
        }
        let name = records[index].recordName
        guard let entity = entities.named(records[index].recordType), entity.isSynchronized else {
            effects.addTrace(detailed: context.isTracing,
                kind: "download.record.skipped",
                details: [TraceField("record", .string(name)),
                          TraceField("reason", .string("entity not synchronized"))],
                rules: ["CFG-1"]
            )
            return false
        }
        // (`settleUnansweredUpload` does nothing without unanswered sends.)
        if !context.syncData.unanswered.isEmpty {
            settleUnansweredUpload(records[index], context: &context)
        }
        let changeTag = records[index].changeTag
        if let tag = context.syncData.uploadedMoves[name], tag != changeTag {
            context.syncData.uploadedMoves[name] = nil
        }
        context.syncData.setChangeTag(changeTag, for: name)
        // (Maps that are empty, as they mostly are, are changed only to add an entry: a
        // removal would make the sync data's storage unique for nothing.)
        let parent = records[index].parent
        if !parent.isNil || !context.syncData.parents.isEmpty {
            context.syncData.parents.setEntry(parent, at: name)
        }
        if !context.syncData.pendingDeletions[name].isNil {
            // The local deletion is not uploaded yet; it wins over the downloaded record.
            effects.addTrace(detailed: context.isTracing,
                kind: "download.record.deleted-locally",
                details: [TraceField("record", .string(name))],
                rules: ["SYNC-4"]
            )
            return false
        }
        if mechanisms.keepsRecordsWithMissingReferencesAside,
           !entity.synchronizedToOneRelationships.isEmpty,
           let missing = missingReference(
               fields: records[index].fields, recordName: name, entity: entity,
               page: records, inPage: &inPage, context: context) {
            let record = records[index]
            context.syncData.aside[record.recordName] = AsideRecord(record: record,
                reason: "references \(missing), not downloaded")
            // LIM-3: another device moved this model into one this device deleted without
            // knowing of the move; the model stays at its previous place here.
            let deletedHere = !context.syncData.pendingDeletions[missing].isNil
                || context.syncData.deletedHere.contains(missing)
            effects.addTrace(detailed: context.isTracing,
                kind: "download.record.kept-aside",
                details: [TraceField("record", .string(record.recordName)),
                          TraceField("references", .string(missing)),
                          TraceField("deletedHere", .bool(deletedHere))],
                rules: deletedHere ? ["DL-3", "LIM-3"] : ["DL-3"]
            )
            return false
        }
        if !context.syncData.aside.isEmpty { context.syncData.aside.removeEntry(at: name) }
        return true
    }

    /// A record name the record (its `fields`, its name) references that is neither stored
    /// here nor in the page. (Given the fields, not the record: a record argument was a copy.)
    ///
    /// `inPage` holds the `RecordNameHash` of each of `page`'s records, at its position, made at
    /// the first reference that is not stored here (nil until then): a reference to a stored
    /// record needs no look at the page, so a page whose records reference only stored ones
    /// hashes none of its names. A page is looked at a few times: a set of its names cost a
    /// SipHash per name to build.
    private func missingReference(
        fields: SortedMap<String, CloudValue>, recordName: String, entity: SDSEntity,
        page: [CloudRecord], inPage: inout [Int]?, context: SDSContext
    ) -> String? {
        // In the entity's relationship order; the keys whose local change wins are worked out
        // only for a reference that needs them (no list of references, no lookup before).
        for relationship in entity.synchronizedToOneRelationships {
            guard case .reference(let name, _)? = fields[relationship.name] else { continue }
            // A stored record is not missing, whether the page has it or not.
            if let id = context.syncData.model(forRecord: name),
               context.store.contains(id) { continue }
            // A record of the page that this device deleted (its deletion not uploaded yet) is
            // not stored: a reference to it is missing here too (LIM-3), unless a local change
            // of the key wins over the downloaded reference (SYNC-4).
            let pageHashes = inPage ?? Self.nameHashes(of: page)
            inPage = pageHashes
            if Self.page(page, hashed: pageHashes, holds: name) {
                if context.syncData.pendingDeletions.isEmpty
                    || context.syncData.pendingDeletions[name].isNil { continue }
                let local = context.syncData.model(forRecord: recordName)
                    .flatMap { context.syncData.pending[$0]?.keysThatWin } ?? [:]
                if local[relationship.name] != nil { continue }
            }
            return name
        }
        return nil
    }

    /// The `RecordNameHash` of each record's name, at its position (`missingReference`). Each
    /// record read in place: a loop's element was a copy of the whole record.
    private static func nameHashes(of page: [CloudRecord]) -> [Int] {
        var hashes: [Int] = []
        hashes.reserveCapacity(page.count)
        for index in page.indices {
            hashes.append(RecordNameHash.hash(page[index].recordName))
        }
        return hashes
    }

    /// Whether a record of `page` is named `name`; `hashes` are its names' (`nameHashes`).
    private static func page(_ page: [CloudRecord], hashed hashes: [Int], holds name: String)
        -> Bool
    {
        let nameHash = RecordNameHash.hash(name)
        for index in hashes.indices where hashes[index] == nameHash {
            if page[index].recordName == name { return true }
        }
        return false
    }

    /// Stores records and deletions in one transaction; when the store refuses it, record by
    /// record, keeping the refused ones aside (DL-4).
    ///
    /// `targets` are the models the records go to (PageResolution), at the records' positions.
    private func store(
        _ records: [CloudRecord],
        deletions: [RecordDeletion],
        targets: [PageResolution.Target?],
        context: inout SDSContext
    ) {
        // Every change of the sync data before the save goes through the journal, so that a
        // refused page can be undone at the cost of what it changed (PageJournal).
        // (Room for a note per deletion: a new model's binding is not noted, `bindNewModel`.)
        var journal = PageJournal(context: context, items: deletions.count)
        #if DEBUG
        let before = context
        #endif
        var transaction = Transaction()
        prepare(records, targets: targets, into: &transaction, journal: &journal,
                context: &context)
        for deletion in deletions {
            noteMovedModelDeletedWithParent(deletion, deletions: deletions, journal: &journal,
                                            context: &context)
            applyDeletion(deletion, to: &transaction, journal: &journal, context: &context)
        }
        if let entry = save(transaction, context: &context) {
            forgetCascadedModels(deletedBy: entry, context: &context)
            recordLocalChanges(afterOwnSave: entry, context: &context)
            return
        }
        precondition(!records.isEmpty || !deletions.isEmpty, "sds: an empty save was refused")
        journal.restore(&context)
        #if DEBUG
        assert(context.store == before.store && context.syncData == before.syncData
               && context.names == before.names, "a refused page was not undone exactly")
        #endif
        guard records.count + deletions.count > 1 else {
            if let record = records.first {
                keepAsideRejected(record, context: &context)
            } else if let deletion = deletions.first {
                effects.addTrace(detailed: context.isTracing,
                    kind: "download.deletion-refused",
                    details: [TraceField("record", .string(deletion.recordName))],
                    rules: ["DL-4"]
                )
            }
            return
        }
        // DL-4: one item at a time, so one invalid record does not stop the others; each after
        // the records of the page it references, so that its links find their models.
        for index in referencesFirst(records) {
            store([records[index]], deletions: [], targets: [targets[index]], context: &context)
        }
        for deletion in deletions {
            store([], deletions: [deletion], targets: [], context: &context)
        }
    }

    /// The page's records in an order where a record comes after the records of the page its
    /// to-one references name (page order otherwise; a cycle keeps page order).
    private func referencesFirst(_ records: [CloudRecord]) -> [Int] {
        var placed = [Bool](repeating: false, count: records.count)
        var order: [Int] = []
        var remaining = Array(records.indices)
        while !remaining.isEmpty {
            var waiting: [Int] = []
            for index in remaining {
                if waitsForAnother(records, at: index, placed: placed) {
                    waiting.append(index)
                } else {
                    order.append(index)
                    placed[index] = true
                }
            }
            if waiting.count == remaining.count { return order + waiting }
            remaining = waiting
        }
        return order
    }

    /// Whether the record at `index` references a record of the page not placed yet.
    private func waitsForAnother(_ records: [CloudRecord], at index: Int, placed: [Bool]) -> Bool {
        guard let entity = entities.named(records[index].recordType) else { return false }
        for relationship in entity.synchronizedToOneRelationships {
            guard case .reference(let name, _)? = records[index].fields[relationship.name],
                  let target = records.firstIndex(where: { $0.recordName == name }),
                  target != index, !placed[target] else { continue }
            return true
        }
        return false
    }

    /// DL-4's reason for a record kept aside.
    static let storeRejectsValues = "the store rejects its values"

    private func keepAsideRejected(_ record: CloudRecord, context: inout SDSContext) {
        context.syncData.aside[record.recordName] = AsideRecord(record: record,
            reason: Self.storeRejectsValues)
        effects.addTrace(detailed: context.isTracing,
            kind: "download.record.kept-aside",
            details: [TraceField("record", .string(record.recordName)),
                      TraceField("reason", .string(Self.storeRejectsValues))],
            rules: ["DL-4"]
        )
    }

    /// Adds the inserts and updates of records to a transaction, binding models to records.
    private func prepare(
        _ records: [CloudRecord],
        targets: [PageResolution.Target?],
        into transaction: inout Transaction,
        journal: inout PageJournal,
        context: inout SDSContext
    ) {
        // Each record's place in `records` (not a copy of it), its model and whether that
        // model is inserted by this page (no set of the inserted names to hash them into),
        // listed on the stack: no array allocated per page, no entity retained.
        // The records are read in place (`records[index]`): a loop's element was a copy.
        withUnsafeTemporaryAllocation(of: PreparedRecord.self, capacity: records.count) {
            guard let applied = $0.baseAddress else { return }
            var count = 0
            for index in records.indices {
                guard let entity = entities.named(records[index].recordType) else { continue }
                let name = records[index].recordName
                let id: ModelID
                let isNew: Bool
                if let target = targets[index], context.store.contains(target.model) {
                    if target.match != .own {
                        adoptTwin(target.model, record: records[index],
                            byValues: target.match == .values,
                                  journal: &journal, context: &context)
                    }
                    id = target.model
                    isNew = false
                } else {
                    id = newModel(for: name, entity: entity, into: &transaction,
                                  journal: &journal, context: &context)
                    isNew = true
                }
                (applied + count).initialize(to: PreparedRecord(
                    index: index, id: id, entity: .passUnretained(entity), isNew: isNew))
                count += 1
            }
            for offset in 0..<count {
                applyDownloaded(applied[offset], of: records, into: &transaction,
                                journal: &journal, context: &context)
            }
        }
    }

    /// A record of the page `prepare` works on: its place in the page, its model, whether the
    /// page inserts that model, and its entity (the engine's, held by it: not retained).
    private struct PreparedRecord {
        let index: Int
        let id: ModelID
        let entity: Unmanaged<SDSEntity>
        let isNew: Bool
    }

    /// The model a downloaded record without one gets, inserted by the page's transaction.
    private func newModel(
        for name: String, entity: SDSEntity, into transaction: inout Transaction,
        journal: inout PageJournal, context: inout SDSContext
    ) -> ModelID {
        let other = context.syncData.model(forRecord: name)
        if let other, context.store.contains(other) {
            // LIM-2: the app created a model with this identity after the page was read;
            // the download inserts its own, and the app's moves to a random name (ID-5).
            let fresh = context.makeRandomRecordName()
            journal.bind(other, to: fresh, in: &context.syncData)
            effects.addTrace(detailed: context.isTracing,
                kind: "download.duplicate-identity",
                details: [TraceField("record", .string(name)),
                    TraceField("localModelMovedTo", .string(fresh))],
                rules: ["LIM-2", "ID-5"]
            )
        }
        let id = context.store.makeModelID()
        journal.bindNewModel(id, to: name, nameIsFree: other.isNil, in: &context.syncData)
        // (Empty maps here and below made by `init()`: the literal `[:]` is a call.)
        transaction.append(.insert(id, entity: entity.name, values: Dictionary()))
        return id
    }

    /// A prepared record's downloaded values go into the transaction; an adoption it answers
    /// is settled (ADOPT-2, ADOPT-3).
    private func applyDownloaded(
        _ prepared: PreparedRecord, of records: [CloudRecord],
        into transaction: inout Transaction, journal: inout PageJournal,
        context: inout SDSContext
    ) {
        let (index, id, isNew) = (prepared.index, prepared.id, prepared.isNew)
        let values = prepared.entity._withUnsafeGuaranteedRef { entity in
            downloadedValues(of: records, at: index, model: id, entity: entity,
                             isNew: isNew, context: context)
        }
        if !values.isEmpty { transaction.append(.update(id, values: values)) }
        // (A model made for this page has no pending change.)
        if !isNew, var pending = context.syncData.pending[id], pending.isAdoption {
            // ADOPT-2: the record exists, so it won; only keys edited since stay (ADOPT-3).
            let edits = pending.adoptionEdits
            pending.keys = pending.keysThatWin
            pending.isAdoption = false
            pending.isInsert = false
            pending.adoptionEdits = []
            journal.setPending(pending.keys.isEmpty ? nil : pending, for: id,
                in: &context.syncData)
            effects.addTrace(detailed: context.isTracing,
                kind: "adopt.record-wins",
                details: [TraceField("record", .string(records[index].recordName)),
                          TraceField("keptLocalEdits", .list(edits.map { .string($0) }))],
                rules: edits.isEmpty ? ["ADOPT-2"] : ["ADOPT-2", "ADOPT-3"]
            )
        }
    }

    /// A local twin takes the record: by values (ADOPT-4, LIFE-3, DEL-3) its adoption is
    /// done; by identity (ID-2) its pending keys still win (SYNC-4).
    private func adoptTwin(
        _ twin: ModelID, record: CloudRecord, byValues: Bool, journal: inout PageJournal,
        context: inout SDSContext
    ) {
        journal.unbind(twin, in: &context.syncData)
        journal.bind(twin, to: record.recordName, in: &context.syncData)
        if byValues {
            journal.setPending(nil, for: twin, in: &context.syncData)
            effects.addTrace(detailed: context.isTracing,
                kind: "download.value-matched",
                details: [TraceField("record", .string(record.recordName))],
                rules: valueMatchingRules(context)
            )
        } else {
            effects.addTrace(detailed: context.isTracing,
                kind: "download.identity-matched",
                details: [TraceField("record", .string(record.recordName))],
                rules: ["ID-2"]
            )
        }
    }

    /// DL-3 / DL-4: records kept aside are tried again once what they reference is here.
    func retryAside(context: inout SDSContext) {
        let names = context.syncData.aside.names
        guard !names.isEmpty else { return }
        var ready: [CloudRecord] = []
        // No page: a reference is missing unless stored here.
        var noPage: [Int]? = []
        for name in names {
            guard let aside = context.syncData.aside[name],
                  let entity = entities.named(aside.record.recordType),
                  missingReference(fields: aside.record.fields, recordName: aside.record.recordName,
                                   entity: entity, page: [], inPage: &noPage,
                                   context: context) == nil,
                  aside.reason.hasPrefix("references") else { continue }
            context.syncData.aside[name] = nil
            ready.append(aside.record)
        }
        guard !ready.isEmpty else { return }
        effects.addTrace(detailed: context.isTracing,
            kind: "download.aside-retried",
            details: [TraceField("records", .list(ready.map { .string($0.recordName) }))],
            rules: ["DL-3"]
        )
        let storable = recordsToStore(ready, context: &context).records
        let targets = storable.map { record in
            context.syncData.model(forRecord: record.recordName).map {
                PageResolution.Target(model: $0, match: .own)
            }
        }
        store(storable, deletions: [], targets: targets, context: &context)
    }

    /// SYNC-4: a save whose answer never arrived (the app was killed, or the answer was lost)
    /// may have been applied. When the downloaded record changed since the version that save
    /// was made on, its keys count as uploaded: they are no longer pending (unless edited
    /// again since), so the downloaded values win for them instead of the old values being
    /// sent again over newer saves. A record still at that version did not get the save,
    /// which stays pending; so does a key of a record this device saved last that lacks the
    /// value sent (an earlier send of the record landed, not the one that carried it).
    private func settleUnansweredUpload(_ record: CloudRecord, context: inout SDSContext) {
        // (An empty map is not asked: a removal hashes the name even then.)
        guard !context.syncData.unanswered.isEmpty,
              let sent = context.syncData.unanswered.removeValue(forKey: record.recordName),
              record.changeTag != sent.changeTag,
              let id = context.syncData.model(forRecord: record.recordName),
              var pending = context.syncData.pending[id] else { return }
        let entity = entities.named(record.recordType)
        let savedHere = record.lastModifiedBy == context.device
        var settled: [String] = []
        var lacked: [String] = []
        for key in sent.keys.keys.sorted() where pending.keys[key] == sent.keys[key] {
            // Not edited since: the store holds the value sent.
            if let entity, !carriesLocalValue(of: key, record: record, model: id,
                                              entity: entity, context: context) {
                // Saved last here, the record got an earlier send, not this one; saved last
                // elsewhere, it may hold a newer save over this one (DR-9 if it never landed).
                if savedHere { continue }
                lacked.append(key)
            }
            pending.keys[key] = nil
            settled.append(key)
        }
        guard !settled.isEmpty || pending.isInsert else { return }
        pending.isInsert = false
        pending.movedFrom = []
        context.syncData.pending[id] = pending.keys.isEmpty ? nil : pending
        effects.addTrace(detailed: context.isTracing,
            kind: "download.unanswered-upload-settled",
            details: [TraceField("record", .string(record.recordName)),
                      TraceField("keys", .list(settled.map { .string($0) }))],
            rules: ["SYNC-4"]
        )
        guard !lacked.isEmpty else { return }
        effects.addTrace(detailed: context.isTracing,
            kind: "download.unanswered-keys-overwritten",
            details: [TraceField("record", .string(record.recordName)),
                      TraceField("keys", .list(lacked.map { .string($0) }))],
            rules: ["DR-9"]
        )
    }

    /// SYNC-4: whether the record holds the model's value of a key (an attribute, in its field
    /// or overflow asset, or a to-one relationship's target); other keys count as held.
    private func carriesLocalValue(
        of key: String, record: CloudRecord, model id: ModelID, entity: SDSEntity,
        context: SDSContext
    ) -> Bool {
        if let attribute = entity.attribute(named: key) {
            return context.store.values(of: id)?[key]
                == RecordMapping.attributeValue(of: key, type: attribute.type, in: record)
        }
        guard entity.synchronizedToOneRelationships.contains(where: { $0.name == key }) else {
            return true
        }
        var target: ModelID?
        if case .reference(let name, _)? = record.fields[key] {
            target = context.syncData.model(forRecord: name)
        }
        return context.store.toOne(of: id)?[key] == target
    }

    /// The values of a downloaded record (`records[index]`) the model takes: every
    /// synchronized key the model has no pending change of (SYNC-4); a key the record lacks
    /// clears the value (CFG-3).
    ///
    /// The record is read in place: given as an argument, it was copied for the call (a
    /// dozen retains, and the releases after), once per downloaded record.
    private func downloadedValues(
        of records: [CloudRecord], at index: Int, model id: ModelID, entity: SDSEntity,
        isNew: Bool, context: SDSContext
    ) -> [String: PropertyValue] {
        if isNew, let values = newModelValues(of: records[index].fields, entity: entity,
                                              context: context) {
            return values
        }
        // (A model made for this page has no pending change.)
        // (Empty maps made by `init()`: the literal `[:]` is a call, per downloaded record.)
        let pendingKeys = isNew
            ? Dictionary() : context.syncData.pending[id]?.keysThatWin ?? Dictionary()
        // A new model is not in the store yet (its insert is in the same transaction).
        // Only the maps compared are read out, not the whole model (its three maps).
        let currentValues = isNew ? nil : context.store.values(of: id)
        // Sized once (`reserveCapacity` runs unspecialized), at the first value: a record
        // that changes nothing of its model (most of those that come back after this
        // device's own upload) allocates no table (an allocation, unspecialized too).
        var values = [String: PropertyValue]()
        let capacity = entity.synchronizedAttributes.count
            + entity.synchronizedToOneRelationships.count
        var kept: [String] = []
        let fields = records[index].fields
        // The entity's attributes and relationships read in place (`attributes[offset]`): a
        // loop's element would be a copy of the description (its name, its default value),
        // made and destroyed per key of every downloaded record.
        let attributes = entity.synchronizedAttributes
        for offset in attributes.indices {
            let key = attributes[offset].name
            // (An empty map is not asked: a lookup hashes the key even then. A few keys are
            // compared, not hashed: `PendingChange.holds`.)
            if !pendingKeys.isEmpty && PendingChange.holds(key, in: pendingKeys) {
                kept.append(key)
                continue
            }
            let downloaded = fields[key].flatMap {
                RecordMapping.attributeValue($0, type: attributes[offset].type)
            }
            if isNew || currentValues?[key] != downloaded {
                if downloaded.isNil && !attributes[offset].isOptional
                    && !attributes[offset].defaultValue.isNil && isNew {
                    continue
                }
                if values.isEmpty { values = .sized(capacity) }
                values[key] = .attribute(downloaded)
            }
        }
        let relationships = entity.synchronizedToOneRelationships
        let currentToOne = isNew || relationships.isEmpty ? nil : context.store.toOne(of: id)
        for offset in relationships.indices {
            let key = relationships[offset].name
            if !pendingKeys.isEmpty && PendingChange.holds(key, in: pendingKeys) {
                kept.append(key)
                continue
            }
            var target: ModelID?
            if case .reference(let name, _)? = fields[key] {
                target = context.syncData.model(forRecord: name)
            }
            if isNew || currentToOne?[key] != target {
                if values.isEmpty { values = .sized(capacity) }
                values[key] = .relationship(target)
            }
        }
        if !kept.isEmpty {
            traceLocalKeysKept(kept, of: records, at: index, context: context)
        }
        return values
    }

    /// `downloadedValues` of a model made for the page, when it takes a value for every
    /// synchronized key (nil when one keeps its default instead): the map is the entity's
    /// offsets (`SDSEntity.synchronizedKeyOffsets`) mapped to the values, in the buckets laid
    /// out once, so no key is hashed per downloaded record.
    private func newModelValues(
        of fields: SortedMap<String, CloudValue>, entity: SDSEntity, context: SDSContext
    ) -> [String: PropertyValue]? {
        let attributes = entity.synchronizedAttributes
        let relationships = entity.synchronizedToOneRelationships
        let count = attributes.count + relationships.count
        guard count == entity.synchronizedKeys.count else { return nil }
        // The values by offset, on the stack (no array allocated per record).
        return withUnsafeTemporaryAllocation(of: PropertyValue.self, capacity: count) { buffer in
            guard let base = buffer.baseAddress else { return [:] }
            for offset in attributes.indices {
                let downloaded = fields[attributes[offset].name].flatMap {
                    RecordMapping.attributeValue($0, type: attributes[offset].type)
                }
                if downloaded.isNil && !attributes[offset].isOptional
                    && !attributes[offset].defaultValue.isNil {
                    base.deinitialize(count: offset)
                    return nil
                }
                (base + offset).initialize(to: .attribute(downloaded))
            }
            for offset in relationships.indices {
                var target: ModelID?
                if case .reference(let name, _)? = fields[relationships[offset].name] {
                    target = context.syncData.model(forRecord: name)
                }
                (base + attributes.count + offset).initialize(to: .relationship(target))
            }
            // Each offset once (no key listed twice): the values are moved out, none copied
            // and none left to destroy.
            if entity.synchronizedKeyOffsets.count == count {
                return entity.synchronizedKeyOffsets.mapValues { (base + Int($0)).move() }
            }
            defer { base.deinitialize(count: count) }
            return entity.synchronizedKeyOffsets.mapValues { base[Int($0)] }
        }
    }

    /// SYNC-4: the downloaded keys a model's pending change keeps its own values of.
    private func traceLocalKeysKept(
        _ kept: [String], of records: [CloudRecord], at index: Int, context: SDSContext
    ) {
        effects.addTrace(detailed: context.isTracing,
            kind: "download.local-keys-kept",
            details: [TraceField("record", .string(records[index].recordName)),
                      TraceField("keys", .list(kept.sorted().map { .string($0) }))],
            rules: ["SYNC-4"]
        )
    }

    /// ID-2: a saved local model without a record that has the record's identity values.
    /// Models whose own record (the name they are bound to) is in the page: that record is
    /// theirs, so another record of the page is never matched to them.
    private func ownRecordInPage(_ pageNames: Set<String>, context: SDSContext) -> Set<ModelID> {
        Set(pageNames.sorted().compactMap { context.syncData.model(forRecord: $0) })
    }

    /// As for value twins, a model already given a record of the page (`taken`) is not given
    /// a second one (a twin of the same identity uploaded elsewhere under a random name, ID-5).
    private func identityTwin(
        of record: CloudRecord, entity: SDSEntity, context: SDSContext, taken: Set<ModelID>
    ) -> ModelID? {
        guard !entity.identity.isEmpty else { return nil }
        var wanted: [String: AttributeValue] = [:]
        for name in entity.identity {
            guard let attribute = entity.attribute(named: name),
                  let field = record.fields[name],
                  let value = RecordMapping.attributeValue(field, type: attribute.type) else {
                      return nil
                  }
            wanted[name] = value
        }
        for model in context.store.models(of: entity.name) where !taken.contains(model.id) {
            let matches = entity.identity.allSatisfy { model.values[$0] == wanted[$0] }
            guard matches else { continue }
            guard let bound = context.syncData.recordName(of: model.id) else { return model.id }
            if context.syncData.changeTag(of: bound).isNil { return model.id }
        }
        return nil
    }

    /// ADOPT-4, LIFE-3, DEL-3: during a download from scratch, a model without an identity
    /// that waits to be adopted and has exactly the record's values is given that record,
    /// instead of being uploaded as a duplicate. A model with changes of its own does not match.
    /// A model already given another record of the same page (one of `targets`) is not given a
    /// second one: each model gets at most one record (two records with the same values each need a
    /// model of their own).
    ///
    /// The record (`records[index]`) is read in place: given as an argument, it was copied for
    /// the call, which mostly ends at the first check.
    private func valueTwin(
        of records: [CloudRecord], at index: Int, entity: SDSEntity, context: SDSContext,
        targets: [PageResolution.Target?], ownRecords: inout Set<ModelID>?
    ) -> ModelID? {
        guard entity.identity.isEmpty,
              context.syncData.zoneToken.isNil || context.syncData.needsFullDownload,
              !context.syncData.pending.isEmpty else {
            return nil
        }
        // The models already taken are worked out at the first model that could match (most
        // records meet none): a model whose own record is in the page takes that one, and
        // is no twin of another.
        var taken: Set<ModelID>?
        // Only models with pending changes can match: visit those (in identifier order, as
        // the entity's models would be), not every model of the store for every record.
        for id in context.syncData.pending.inOrder {
            // The entity and the values are read from the store: the model is not copied out.
            guard context.store.entity(of: id) == entity.name,
                  let pending = context.syncData.pending[id],
                  // ADOPT-4: a device that never synchronized matches its new models too;
                  // LIFE-3: after a reset, a model whose changes were not uploaded yet
                  // (saved since the reset) does not match, and becomes another record.
                  pending.isAdoption
                    || (pending.isInsert && !context.syncData.hasDownloadedOnce
                        && context.syncData.valueMatchingRule != "LIFE-3"),
                  let name = context.syncData.recordName(of: id),
                  context.syncData.changeTag(of: name).isNil,
                  name != records[index].recordName else { continue }
            if taken == nil {
                let own = ownRecords
                    ?? ownRecordInPage(Set(records.map(\.recordName)), context: context)
                ownRecords = own
                taken = Set(targets.compactMap { $0?.model }).union(own)
            }
            guard taken?.contains(id) == false,
                  let values = context.store.values(of: id) else { continue }
            let fields = records[index].fields
            let matches = entity.synchronizedAttributes.allSatisfy { attribute in
                let downloaded = fields[attribute.name].flatMap {
                    RecordMapping.attributeValue($0, type: attribute.type)
                }
                return downloaded == values[attribute.name]
            }
            if matches { return id }
        }
        return nil
    }

    private func valueMatchingRules(_ context: SDSContext) -> [String] {
        [context.syncData.valueMatchingRule]
    }

    /// LIM-3, observed by the device that moved a model: the model arrives deleted together
    /// with the parent this device moved it into (iCloud deleted it with that parent), so the
    /// device that deleted the parent did so without having the move.
    private func noteMovedModelDeletedWithParent(
        _ deletion: RecordDeletion, deletions: [RecordDeletion], journal: inout PageJournal,
        context: inout SDSContext
    ) {
        guard journal.removeUploadedMove(deletion.recordName, in: &context.syncData) != nil,
              let parent = context.syncData.parents[deletion.recordName],
              // (The page's deletions searched here, for the rare moved model: a set of their
              // names built for every page with deletions cost more.)
              deletions.contains(where: { $0.recordName == parent })
        else { return }
        effects.addTrace(detailed: context.isTracing,
            kind: "download.moved-model-deleted-with-parent",
            details: [TraceField("record", .string(deletion.recordName)),
                      TraceField("parent", .string(parent))],
            rules: ["LIM-3"]
        )
    }

    private func applyDeletion(
        _ deletion: RecordDeletion,
        to transaction: inout Transaction,
        journal: inout PageJournal,
        context: inout SDSContext
    ) {
        if entities.named(deletion.recordType)?.isSynchronized != true,
           fullEntities.named(deletion.recordType)?.isSynchronized == true {
            // EXT-2 / EXT-3: a deletion of a model this process does not synchronize.
            journal.setSkippedDeletion(deletion.recordType, for: deletion.recordName,
                in: &context.syncData)
            journal.setSkippedRule(isExtension ? "EXT-2" : "EXT-3", for: deletion.recordName,
                                   in: &context.syncData)
            effects.addTrace(detailed: context.isTracing,
                kind: "download.deletion-skipped",
                details: [TraceField("record", .string(deletion.recordName))],
                rules: [isExtension ? "EXT-2" : "EXT-3"]
            )
            return
        }
        // DL-3: a version kept aside is of a record deleted since; retried, it would bring
        // the model back.
        if !context.syncData.aside.isEmpty {
            context.syncData.aside.removeEntry(at: deletion.recordName)
        }
        journal.setChangeTag(nil, for: deletion.recordName, in: &context.syncData)
        journal.removePendingDeletion(deletion.recordName, in: &context.syncData)
        journal.removeRecordZone(deletion.recordName, in: &context.syncData)
        guard let id = context.syncData.model(forRecord: deletion.recordName) else { return }
        guard context.store.contains(id) else {
            journal.unbind(id, in: &context.syncData)
            return
        }
        if context.syncData.pending[id]?.isInsert == true,
           journal.removeUnanswered(deletion.recordName, in: &context.syncData) != nil {
            // SYNC-4: the insert was sent and its answer lost; iCloud created the record,
            // and another device deleted it since: the deletion is of this model's record.
            effects.addTrace(detailed: context.isTracing,
                kind: "download.unanswered-insert-deleted",
                details: [TraceField("record", .string(deletion.recordName))],
                rules: ["SYNC-4"]
            )
        } else if context.syncData.pending[id]?.isInsert == true {
            // SYNC-5: this model was created here after that record was deleted; it keeps
            // the record (its upload creates it again).
            effects.addTrace(detailed: context.isTracing,
                kind: "download.deletion-ignored",
                details: [TraceField("record", .string(deletion.recordName)),
                          TraceField("reason",
                              .string("a model created on this device holds the record"))],
                rules: ["SYNC-5"]
            )
            return
        }
        journal.unbind(id, in: &context.syncData)
        var rules: [String] = []
        if let pending = context.syncData.pending[id], !pending.keys.isEmpty {
            rules.append("SYNC-3")
        }
        journal.setPending(nil, for: id, in: &context.syncData)
        transaction.append(.delete(id))
        effects.addTrace(detailed: context.isTracing,
            kind: "download.deleted",
            details: [TraceField("record", .string(deletion.recordName))],
            rules: rules
        )
    }

    /// Saves a transaction as the engine's own author: the history entry of what it changed
    /// (nil inside when it changed nothing); nil when the store refuses it.
    private func save(_ transaction: Transaction, context: inout SDSContext) -> HistoryEntry?? {
        guard !transaction.isEmpty else { return .some(nil) }
        do {
            return .some(try context.store.save(transaction, author: Self.author))
        } catch {
            return nil
        }
    }

    /// Models that vanished with the engine's own deletions (delete rules) lose their
    /// records here. One that had changes not uploaded yet, e.g. a move into the model whose
    /// deletion arrived, is deleted everywhere: its deletion is uploaded (LIM-3).
    private func forgetCascadedModels(deletedBy entry: HistoryEntry?, context: inout SDSContext) {
        // Only the models this download's save removed (its history entry's deletions, still
        // bound to a record), sorted: a model gone before it (a batch delete, DEL-2) keeps its
        // record, so the next launch brings it back. O(page), not O(bound models).
        // (Made by `init()`: the literal `[:]` is a call, per stored page.)
        var vanished = [ModelID: String]()
        for change in entry?.changes ?? [] {
            if case .deleted(let id, let entity, _) = change,
               !context.syncData.recordName(of: id).isNil {
                vanished[id] = entity
            }
        }
        guard !vanished.isEmpty else { return }
        for id in vanished.keys.sorted() {
            guard let name = context.syncData.recordName(of: id) else { continue }
            if mechanisms.uploadsDeletionsOfCascadedChangedModels,
               let pending = context.syncData.pending[id], !pending.isInsert, !pending.keys.isEmpty,
               let entity = vanished[id] {
                context.syncData.pendingDeletions[name] = PendingDeletion(recordName: name,
                    recordType: entity)
                effects.addTrace(detailed: context.isTracing,
                    kind: "download.cascade-deleted-pending-change",
                    details: [TraceField("record", .string(name)),
                              TraceField("keys", .list(pending.sortedKeys.map { .string($0) }))],
                    rules: ["LIM-3"]
                )
            }
            if context.syncData.pending[id].isNil, !context.syncData.changeTag(of: name).isNil {
                // LIM-3: an uploaded model the page did not delete goes with the one it is in:
                // the delete rule removes it here only, and its record stays in iCloud.
                effects.addTrace(detailed: context.isTracing,
                    kind: "download.cascade-deleted-moved-model",
                    details: [TraceField("record", .string(name))],
                    rules: ["LIM-3"]
                )
            }
            if let pending = context.syncData.pending[id], pending.isInsert, !pending.isAdoption {
                // DR-1: a model created here inside the one whose deletion arrived, never
                // uploaded: the delete rule removes it before any device saw it.
                effects.addTrace(detailed: context.isTracing,
                    kind: "download.cascade-deleted-new-model",
                    details: [TraceField("record", .string(name))],
                    rules: ["DR-1"]
                )
            }
            context.syncData.unbind(id)
            context.syncData.pending[id] = nil
        }
    }
}
