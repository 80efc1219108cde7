import CloudSim
import Kernel
import LocalStore
import SyncContract

/// Large values (BIG-1 .. BIG-5, LIM-6): which values of an upload go into the overflow
/// asset `SDSOverflow`, the fetch of a record's iCloud copy before its asset is uploaded, and
/// how downloaded assets are read.
extension SDSEngine {
    // MARK: Upload: fetching the records whose asset is involved (BIG-3)

    /// A `fetchRecords` request for the records this synchronization is about to upload whose
    /// overflow asset is involved and that it has not fetched yet; nil when there are none.
    /// One request fetches from one zone: the first, in order, that has such records.
    ///
    /// A new record of an entity without an identity has a fresh random name: nothing can be
    /// in iCloud under it, so it is not fetched.
    func overflowFetchRequest(_ current: SyncRun, context: SDSContext) -> CloudRequest? {
        let upload = current.upload
        guard mayFetchOverflow(upload, context: context) else { return nil }
        // (Made by `init()`: the literal `[:]` is a call, per upload request.)
        var byZone = [ZoneID: [String]]()
        if upload.overflow.mustFetch.isEmpty {
            // The candidates are then one of the pending indexes as it is (what
            // `overflowFetchCandidates` answers), read in place, not copied into an array
            // with the pending changes copied out of the sync data first, on every request,
            // mostly to find nothing.
            let candidates = entities.anyHasIdentity
                ? context.syncData.pending.inOrder : context.syncData.pending.othersInOrder
            for id in candidates {
                noteOverflowFetch(of: id, current, context: context, into: &byZone)
            }
        } else {
            for id in overflowFetchCandidates(current, context: context) {
                noteOverflowFetch(of: id, current, context: context, into: &byZone)
            }
        }
        // (Nothing to fetch, most of the time: no keys to sort.)
        guard !byZone.isEmpty, let zone = byZone.keys.sorted().first, let all = byZone[zone] else {
            return nil
        }
        let names = Array(all.prefix(Self.maxItemsPerUpload))
        upload.overflow.fetching = names
        upload.uploadRequests += 1
        let scope: DatabaseScope = zone == appZone(context) ? .privateDatabase : .sharedDatabase
        return .fetchRecords(scope: scope, zone: zone, names: names)
    }

    /// Whether `overflowFetchRequest` can find a record to fetch: not while the quota pauses
    /// uploads, nor without a candidate (most requests: the changes left are plain inserts,
    /// or none), which it would otherwise look for in a map of zones made for nothing.
    func mayFetchOverflow(_ upload: UploadRun, context: SDSContext) -> Bool {
        guard quotaPausedUntil == nil else { return false }
        return !upload.overflow.mustFetch.isEmpty || (entities.anyHasIdentity
            ? !context.syncData.pending.isEmpty
            : context.syncData.pending.othersInOrder.count > 0)
    }

    /// Adds a pending model's record to the fetch of its zone when it `needsFetch`.
    private func noteOverflowFetch(
        of id: ModelID, _ current: SyncRun, context: SDSContext,
        into byZone: inout [ZoneID: [String]]
    ) {
        guard let pending = context.syncData.pending[id],
              let name = context.syncData.recordName(of: id),
              needsFetch(id, name: name, pending: pending, current, context: context)
        else { return }
        byZone[overflowZone(of: name, model: id, context: context), default: []].append(name)
    }

    /// The pending models, in identifier order, that `needsFetch` can be true of: all of them
    /// when an entity has an identity; otherwise a plain insert is a fresh record, fetched only
    /// when this synchronization must fetch it, so only the other changes and those are
    /// visited (a first upload of N new models is not scanned whole for each request).
    private func overflowFetchCandidates(_ current: SyncRun, context: SDSContext) -> [ModelID] {
        let pending = context.syncData.pending
        if entities.anyHasIdentity { return Array(pending.inOrder) }
        var candidates = Array(pending.othersInOrder)
        var mustFetch: [ModelID] = []
        for name in current.upload.overflow.mustFetch { // tidy: ordered (sorted below)
            guard let id = context.syncData.model(forRecord: name), let change = pending[id],
                  change.isPlainInsert else { continue }
            mustFetch.append(id)
        }
        guard !mustFetch.isEmpty else { return candidates }
        candidates.append(contentsOf: mustFetch)
        return Array(Set(candidates)).sorted()
    }

    /// The zone a record is uploaded to. The app's zone here; where the engine uploads to
    /// other users' shares, the zone of the record's share.
    func overflowZone(of name: String, model: ModelID, context: SDSContext) -> ZoneID {
        zone(ofRecord: name, model: model, context: context)
    }

    /// Whether a pending record must be fetched before its upload: its asset is involved, as
    /// far as this device knows, and this synchronization has neither fetched nor tried it.
    private func needsFetch(
        _ id: ModelID,
        name: String,
        pending: PendingChange,
        _ current: SyncRun,
        context: SDSContext
    ) -> Bool {
        let upload = current.upload
        guard upload.overflow.bases[name].isNil,
              !upload.hasAttempted(name, adoption: pending.isAdoption),
              isUploadable(name, context: context) else { return false }
        if upload.overflow.mustFetch.contains(name) { return true }
        guard let model = context.store.model(id),
              let entity = entities.named(model.entity),
              !isFreshRecord(pending, entity: entity) else { return false }
        // A small record without a known asset moves nothing (`localPlan`'s first case),
        // told from the model without building its save.
        if context.syncData.overflow[name].isNil,
           smallRecordSize(model: model, pending: pending, entity: entity,
               context: context) != nil {
            return false
        }
        let save = plainSave(
            of: id, model: model, entity: entity, name: name, pending: pending,
            changeTag: pending.isAdoption ? nil : context.syncData.changeTag(of: name),
            context: context, tracesClearedKeys: false)
        return localPlan(save, model: model, pending: pending, entity: entity, context: context)
            .involvesAsset
    }

    /// Whether the record is new and named at random, so that iCloud cannot have it yet.
    private func isFreshRecord(_ pending: PendingChange, entity: SDSEntity) -> Bool {
        pending.isInsert && !pending.isAdoption && entity.identity.isEmpty
    }

    /// BIG-3: handles the answer to the fetch of `overflowFetchRequest`; false when the
    /// answer is not to such a fetch. Records that exist become the base of their upload; a
    /// model waiting to be adopted takes its record instead (ADOPT-2).
    func handleOverflowFetchAnswer(
        _ response: CloudResponse,
        _ current: SyncRun,
        context: inout SDSContext
    ) -> Bool {
        let upload = current.upload
        guard !upload.overflow.fetching.isEmpty else { return false }
        let names = upload.overflow.fetching
        upload.overflow.fetching = []
        guard case .recordsFetched(let results) = response else {
            for name in names { skipUpload(of: name, current) }
            if case .failure(let error) = response {
                handleUploadFailure(error, current, context: &context)
            }
            return true
        }
        var found: [String] = []
        var failure: CloudError?
        for result in results {
            switch result {
            case .saved(let record):
                observeOverflow(record, context: &context)
                upload.overflow.bases[record.recordName] = .record(record)
                found.append(record.recordName)
            case .failed(let name, let error) where error.code == .unknownItem:
                upload.overflow.bases[name] = .absent
            case .failed(let name, let error):
                skipUpload(of: name, current)
                failure = failure ?? error
            case .deleted:
                break
            }
        }
        effects.addTrace(detailed: context.isTracing,
            kind: "upload.overflow-fetched",
            details: [TraceField("records", .list(names.map { .string($0) })),
                      TraceField("found", .list(found.map { .string($0) }))],
            rules: ["BIG-3"]
        )
        adoptFetchedRecords(found, current, context: &context)
        if let failure { fetchFailed(failure, current, context: &context) }
        return true
    }

    /// The record is not uploaded by this synchronization.
    private func skipUpload(of name: String, _ current: SyncRun) {
        let upload = current.upload
        upload.attempted.insert(name)
        upload.attemptedAdoptions.insert(name)
    }

    /// A fetch that failed for some records: they wait for the next synchronization, which a
    /// transient error schedules (ERR-3); a missing zone is created again (ERR-1).
    private func fetchFailed(_ error: CloudError, _ current: SyncRun, context: inout SDSContext) {
        effects.addTrace(detailed: context.isTracing,
            kind: "upload.overflow-fetch-failed",
            details: [TraceField("error", .string(error.description))],
            rules: []
        )
        switch error.code {
        case .zoneNotFound:
            zoneMissing(recreatedByAnother: false, context: &context)
            wantsSync = true
        case .userDeletedZone:
            userDeletedZone(current, context: &context)
        default:
            if error.retryAfter != nil || error.code.isTransient {
                scheduleRetry(after: error, context: context)
            }
        }
    }

    /// ADOPT-2 with BIG-3: a model waiting to be adopted whose record exists takes the
    /// record, overflow values included, instead of being uploaded.
    private func adoptFetchedRecords(
        _ names: [String],
        _ current: SyncRun,
        context: inout SDSContext
    ) {
        let upload = current.upload
        for name in names {
            guard let record = upload.overflow.bases[name]?.record,
                  let id = context.syncData.model(forRecord: name),
                  let pending = context.syncData.pending[id], pending.isAdoption else { continue }
            upload.attemptedAdoptions.insert(name)
            let save = UploadBatch.Save(name: name, model: id, keys: pending.keys,
                                        isInsert: false, earlierUnanswered: nil)
            let batch = UploadBatch(saved: [save], deletedNames: [], isAdoption: true,
                                    zone: record.zone)
            adoptServerRecord(RecordMapping.expandingOverflow(record), batch: batch, at: 0,
                              context: &context)
        }
    }

    /// ADOPT-2 with BIG-3: the server record of a `serverRecordChanged` comes without its
    /// asset's contents; when it has an overflow asset, the record is fetched and adopted
    /// from the fetched copy.
    func needsOverflowContents(_ server: CloudRecord?, _ current: SyncRun) -> Bool {
        let upload = current.upload
        guard let server, server.fields[Self.overflowField] != nil,
              upload.overflow.bases[server.recordName] == nil else { return false }
        upload.overflow.mustFetch.insert(server.recordName)
        upload.attemptedAdoptions.remove(server.recordName)
        return true
    }

    /// BIG-1, BIG-2: a save iCloud found too large although it had changed values that could
    /// move into the asset is tried once more in this synchronization, planned on top of the
    /// record as iCloud holds it.
    func retryTooLarge(
        _ name: String,
        error: CloudError,
        _ current: SyncRun,
        context: SDSContext
    ) -> Bool {
        let upload = current.upload
        guard error.code == .limitExceeded, upload.overflow.bases[name] == nil,
              !upload.overflow.mustFetch.contains(name),
              let id = context.syncData.model(forRecord: name),
              let pending = context.syncData.pending[id],
              let model = context.store.model(id), let entity = entities.named(model.entity)
        else { return false }
        let movable = entity.synchronizedAttributes.contains { attribute in
            Self.isMovable(attribute, of: entity) && pending.keys[attribute.name] != nil
                && model.values[attribute.name] != nil
        }
        guard movable else { return false }
        upload.overflow.mustFetch.insert(name)
        upload.attempted.remove(name)
        upload.attemptedAdoptions.remove(name)
        effects.addTrace(detailed: context.isTracing,
            kind: "upload.too-large-retried",
            details: [TraceField("record", .string(name))],
            rules: ["BIG-1", "BIG-2"]
        )
        return true
    }

    /// Names the rule of a rejection the engine can tell: a record too large (BIG-1), a
    /// record type or field the production schema lacks (SCHEMA-2: `invalidArguments` with
    /// CloudKit's message "... in production schema"), a write a share does not permit (DR-2).
    func traceRejection(_ name: String, error: CloudError, detailed: Bool) {
        let rule: String
        switch error.code {
        case .limitExceeded: rule = "BIG-1"
        case .invalidArguments where error.message.hasSuffix("in production schema"):
            rule = "SCHEMA-2"
        // DR-2: a write the share's permission refuses is refused at every retry.
        case .permissionFailure: rule = "DR-2"
        default: return
        }
        effects.addTrace(detailed: detailed,
            kind: "upload.rejected",
            details: [TraceField("record", .string(name)),
                      TraceField("error", .string(error.message))],
            rules: [rule]
        )
    }

    // MARK: Upload: the save (BIG-1 .. BIG-5)

    /// The save with its values placed: large ones and those that do not fit in the overflow
    /// asset, merged into the asset of the fetched `base` (BIG-3). Nil when the asset is
    /// involved but the record was not fetched (it waits for another synchronization).
    ///
    /// The save is given (`consuming`) and handed back as it is when nothing moves, the
    /// usual case: borrowed, it would be copied for the return and the caller's destroyed.
    /// Without a fetched `base` the plan is the local one (no optional base copied and
    /// compared per save).
    func placeOverflow(
        _ save: consuming RecordSave,
        of id: ModelID,
        model: Model,
        entity: SDSEntity,
        pending: PendingChange,
        adoption: Bool,
        base: OverflowRunState.Base?,
        context: SDSContext
    ) -> RecordSave? {
        let name = save.record.recordName
        traceAssetProperties(save, entity: entity)
        guard let base else {
            let plan = localPlan(save, model: model, pending: pending, entity: entity,
                                 context: context)
            guard plan.involvesAsset else {
                tracePlan(plan, record: name)
                return save
            }
            guard isFreshRecord(pending, entity: entity) else {
                effects.addTrace(detailed: context.isTracing,
                    kind: "upload.overflow-deferred",
                    details: [TraceField("record", .string(name))],
                    rules: ["BIG-3"]
                )
                return nil
            }
            return placed(save, plan: basePlan(save, base: .absent, entity: entity),
                          base: .absent, adoption: adoption, context: context)
        }
        return placed(save, plan: basePlan(save, base: base, entity: entity), base: base,
                      adoption: adoption, context: context)
    }

    /// `placeOverflow` with the plan made on top of `base`: traced, and the save merged when
    /// the asset is involved.
    private func placed(
        _ save: consuming RecordSave,
        plan: OverflowPlan,
        base: OverflowRunState.Base,
        adoption: Bool,
        context: SDSContext
    ) -> RecordSave {
        tracePlan(plan, record: save.record.recordName)
        guard plan.involvesAsset else { return save }
        return merged(save, plan: plan, base: base, adoption: adoption, context: context)
    }

    /// The save with the plan's values moved into the asset, the asset merged into the one in
    /// iCloud: its other values stay, and entries hidden by a field are dropped.
    private func merged(
        _ save: RecordSave,
        plan: OverflowPlan,
        base: OverflowRunState.Base,
        adoption: Bool,
        context: SDSContext
    ) -> RecordSave {
        var result = save
        let name = save.record.recordName
        let server = base.record
        var asset = OverflowAsset.decode(server?.fields[Self.overflowField]) ?? OverflowAsset()
        var finalFields = server?.fields ?? [:]
        finalFields[Self.overflowField] = nil
        for key in save.changedKeys { finalFields[key] = save.record.fields[key] }
        for key in plan.movedInKeys { finalFields[key] = nil }
        let changed = Set(save.changedKeys)
        for key in asset.sortedKeys where changed.contains(key) || finalFields[key] != nil {
            asset.entries[key] = nil
        }
        let kept = asset.sortedKeys
        for key in plan.movedInKeys {
            guard let field = save.record.fields[key],
                  let value = OverflowAsset.Value(field) else { continue }
            asset.entries[key] = value
            result.record.fields[key] = nil
        }
        let stamp = context.device + "@" + (server?.changeTag ?? "new")
        asset = asset.stamped(stamp)
        result.record.fields[Self.overflowField] = .asset(asset.encoded)
        result.changedKeys = (save.changedKeys + [Self.overflowField]).sorted()
        if !adoption, let tag = server?.changeTag { result.record.changeTag = tag }
        if let server {
            effects.addTrace(detailed: context.isTracing,
                kind: "upload.overflow-merged",
                details: [TraceField("record", .string(name)),
                          TraceField("onto", .string(server.changeTag ?? "")),
                          TraceField("kept", .list(kept.map { .string($0) })),
                          TraceField("stamp", .string(stamp))],
                rules: ["BIG-3"]
            )
        } else {
            effects.addTrace(detailed: context.isTracing,
                kind: "upload.overflow-new",
                details: [TraceField("record", .string(name)), TraceField("stamp", .string(stamp))],
                rules: []
            )
        }
        if server?.fields[Self.overflowField] == nil {
            effects.addTrace(detailed: context.isTracing,
                kind: "upload.overflow-field-added",
                details: [TraceField("record", .string(name))],
                rules: ["BIG-5", "SCHEMA-1"]
            )
        }
        return result
    }

    /// The plan made from what this device knows: its models' values for the keys that did
    /// not change, and the asset's keys as it last saw them.
    func localPlan(
        _ save: RecordSave,
        model: Model,
        pending: PendingChange,
        entity: SDSEntity,
        context: SDSContext
    ) -> OverflowPlan {
        let name = save.record.recordName
        let known = context.syncData.overflow[name]
        if known.isNil, let size = smallRecordSize(
            model: model, pending: pending, entity: entity, context: context) {
            // No asset as far as this device knows, no large changed value and the record
            // fits: nothing moves (what `OverflowPlan.make` decides for it, without its maps).
            var plan = OverflowPlan()
            plan.recordSize = size
            return plan
        }
        let assetKeys = Set(known?.keys ?? [])
        var fields: [String: CloudValue] = [:]
        for attribute in entity.synchronizedAttributes where !assetKeys.contains(attribute.name) {
            guard let value = model.values[attribute.name] else { continue }
            fields[attribute.name] = RecordMapping.cloudValue(value, asset: attribute.isAsset)
        }
        for relationship in entity.synchronizedToOneRelationships {
            guard let target = model.toOne[relationship.name],
                  let targetName = context.syncData.recordName(of: target) else { continue }
            fields[relationship.name] = RecordMapping.reference(targetName, relationship)
        }
        return plan(save, fields: fields, assetKeys: assetKeys, hadAsset: !known.isNil,
                    entity: entity)
    }

    /// The size `localPlan` would give a record without an asset, when none of its changed
    /// values is 256 KB or more (BIG-2) and the record after the save fits in 1 MB (BIG-1);
    /// nil otherwise, and the plan is then made in full. Most uploads are small records:
    /// planning them in full builds half a dozen maps and sets per record.
    ///
    /// Read from the model and its pending keys, as the save `plainSave` makes of them holds
    /// them: a changed key's field is the model's value (none when cleared), an unchanged
    /// key counts with the model's value, so a record is sized without building its save
    /// (which `needsFetch` would otherwise build for every pending update).
    func smallRecordSize(
        model: Model, pending: PendingChange, entity: SDSEntity, context: SDSContext
    ) -> Int? {
        var total = 0
        // The entity's attributes and relationships read in place (`attributes[offset]`): a
        // loop's element was a copy of the description (its name, its default value), made
        // and destroyed per key of every record sized.
        let attributes = entity.synchronizedAttributes
        for offset in attributes.indices {
            let key = attributes[offset].name
            guard let value = model.values[key] else { continue }
            let size = RecordMapping.recordSizeBytes(of: value, asset: attributes[offset].isAsset)
            if size >= OverflowPlan.largeValue && pending.keys[key] != nil { return nil }
            total += key.utf8.count + size
        }
        let relationships = entity.synchronizedToOneRelationships
        for offset in relationships.indices {
            let key = relationships[offset].name
            guard let target = model.toOne[key],
                  let targetName = context.syncData.recordName(of: target) else { continue }
            // A reference counts its target's name and 16 bytes (`CloudValue.recordSizeBytes`).
            let size = targetName.utf8.count + 16
            if size >= OverflowPlan.largeValue && pending.keys[key] != nil { return nil }
            total += key.utf8.count + size
        }
        return total <= OverflowPlan.recordLimit ? total : nil
    }

    /// The plan made on top of the record as iCloud holds it (BIG-3).
    private func basePlan(
        _ save: RecordSave, base: OverflowRunState.Base, entity: SDSEntity
    ) -> OverflowPlan {
        var fields = base.record?.fields.dictionary ?? [:]
        let field = fields[Self.overflowField]
        fields[Self.overflowField] = nil
        let assetKeys = Set(OverflowAsset.decode(field)?.sortedKeys ?? [])
        return plan(save, fields: fields, assetKeys: assetKeys, hadAsset: field != nil,
                    entity: entity)
    }

    private func plan(
        _ save: RecordSave,
        fields: [String: CloudValue],
        assetKeys: Set<String>,
        hadAsset: Bool,
        entity: SDSEntity
    ) -> OverflowPlan {
        let movable = entity.synchronizedAttributes.filter { Self.isMovable($0, of: entity) }
        var changed: [String: CloudValue] = [:]
        for key in save.changedKeys { changed[key] = save.record.fields[key] }
        return OverflowPlan.make(
            fields: fields, assetKeys: assetKeys, hadAsset: hadAsset, changed: changed,
            changedKeys: save.changedKeys, movable: Set(movable.map(\.name)),
            identity: Set(entity.identity))
    }

    /// Whether an attribute's value may move into the asset: texts and data (BIG-2) that are
    /// neither asset properties (BIG-1) nor identity values (BIG-5).
    static func isMovable(_ attribute: AttributeDescription, of entity: SDSEntity) -> Bool {
        (attribute.type == .string || attribute.type == .data) && !attribute.isAsset
            && !entity.identity.contains(attribute.name)
    }

    /// BIG-1: asset properties are uploaded as assets, whatever their size.
    private func traceAssetProperties(_ save: RecordSave, entity: SDSEntity) {
        let keys = entity.synchronizedAttributes.filter { attribute in
            attribute.isAsset && save.record.fields[attribute.name] != nil
                && save.changedKeys.contains(attribute.name)
        }.map(\.name)
        guard !keys.isEmpty else { return }
        effects.addTrace(detailed: true,
            kind: "upload.asset-property",
            details: [TraceField("record", .string(save.record.recordName)),
                      TraceField("keys", .list(keys.map { .string($0) }))],
            rules: ["BIG-1"]
        )
    }

    private func tracePlan(_ plan: OverflowPlan, record name: String) {
        if !plan.movedIn.isEmpty {
            effects.addTrace(detailed: true,
                kind: "upload.overflow-in",
                details: [TraceField("record", .string(name)),
                          TraceField("keys", .list(plan.movedIn.map { .string($0.key) })),
                          TraceField("why", .list(plan.movedIn.map {
                              .string($0.reason.rawValue)
                          }))],
                rules: plan.movedIn.contains { $0.reason == .doesNotFit }
                    ? ["BIG-1", "BIG-2", "BIG-4"] : ["BIG-2", "BIG-4"]
            )
        }
        if !plan.movedOut.isEmpty {
            effects.addTrace(detailed: true,
                kind: "upload.overflow-out",
                details: [TraceField("record", .string(name)),
                          TraceField("keys", .list(plan.movedOut.map { .string($0) }))],
                rules: ["BIG-4"]
            )
        }
        if !plan.identityKept.isEmpty {
            effects.addTrace(detailed: true,
                kind: "upload.identity-kept-in-field",
                details: [TraceField("record", .string(name)),
                          TraceField("keys", .list(plan.identityKept.map { .string($0) }))],
                rules: ["BIG-5"]
            )
        }
        if plan.isTooLarge {
            effects.addTrace(detailed: true,
                kind: "upload.record-too-large",
                details: [TraceField("record", .string(name)),
                          TraceField("bytes", .int(Int64(plan.recordSize)))],
                rules: ["BIG-1"]
            )
        }
    }

    // MARK: Records received: downloads, fetches, save answers

    /// BIG-2: downloaded records with the values of their overflow asset in their own fields,
    /// so they are read like any other value; deleted records are forgotten.
    func readOverflow(
        _ records: [CloudRecord],
        deletions: [RecordDeletion],
        context: inout SDSContext
    ) -> [CloudRecord] {
        if !context.syncData.overflow.isEmpty {
            for deletion in deletions {
                context.syncData.overflow.removeEntry(at: deletion.recordName)
            }
        }
        // The records as read, copied out only from the first one with an asset: usually none
        // has one, and `records` itself is the answer (no copy of each record).
        // (Each record read in place, `records[index]`: a loop's element was a copy.)
        var read: [CloudRecord]?
        for index in records.indices {
            // (Asked through the array's buffer, where the record lies: through the array,
            // its fields' map was retained and released for the question.)
            guard let field = records.withUnsafeBufferPointer({
                $0[index].fields[Self.overflowField]
            }) else {
                // `observeOverflow` for a record without an asset, without copying the
                // record into its argument (a dozen retains and releases per record); an
                // empty map (most of the time) is not changed, so not made unique either.
                if !context.syncData.overflow.isEmpty {
                    context.syncData.overflow.removeEntry(at: records[index].recordName)
                }
                read?.append(records[index])
                continue
            }
            observeOverflow(records[index], context: &context)
            let keys = OverflowAsset.decode(field)?.sortedKeys ?? []
            effects.addTrace(detailed: context.isTracing,
                kind: "download.overflow-read",
                details: [TraceField("record", .string(records[index].recordName)),
                          TraceField("keys", .list(keys.map { .string($0) }))],
                rules: keys.isEmpty ? [] : ["BIG-2"]
            )
            if read == nil { read = Array(records[..<index]) }
            read?.append(RecordMapping.expandingOverflow(records[index]))
        }
        return read ?? records
    }

    /// Remembers which keys a record's asset holds, and notices LIM-6: the asset no longer
    /// descends from this device's last upload of it, so an upload that never saw that one
    /// replaced it (two devices uploaded the asset within the same moment; the last won).
    ///
    /// `uploadedKeys` are the keys this device just saved, when the record is the answer to
    /// its own upload.
    func observeOverflow(
        _ record: CloudRecord,
        uploadedKeys: [String] = [],
        context: inout SDSContext
    ) {
        let name = record.recordName
        guard !record.fields[Self.overflowField].isNil else {
            context.syncData.overflow.removeEntry(at: name)
            return
        }
        let previous = context.syncData.overflow[name]
        // An asset whose contents were not sent tells nothing new.
        guard let asset = OverflowAsset.decode(record.fields[Self.overflowField]) else { return }
        var state = previous ?? OverflowRecordState()
        state.keys = asset.sortedKeys
        if let own = state.ownStamp, !asset.history.contains(own) {
            let sameRecord = state.ownRecordCreated == record.creationTime
            if sameRecord && asset.history.count < OverflowAsset.historyLimit {
                effects.addTrace(detailed: context.isTracing,
                    kind: "overflow.upload-replaced",
                    details: [TraceField("record", .string(name)),
                              TraceField("ownUpload", .string(own)),
                              TraceField("replacedBy", .string(asset.history.last ?? "")),
                              TraceField("keys", .list(state.ownKeys.map { .string($0) }))],
                    rules: ["LIM-6"]
                )
            }
            state.ownStamp = nil
            state.ownKeys = []
            state.ownRecordCreated = nil
        }
        if let last = asset.history.last, last.hasPrefix(context.device + "@"),
           last != state.ownStamp {
            state.ownStamp = last
            state.ownKeys = uploadedKeys.filter { asset.entries[$0] != nil }
            state.ownRecordCreated = record.creationTime
        }
        context.syncData.overflow[name] = state
    }
}
