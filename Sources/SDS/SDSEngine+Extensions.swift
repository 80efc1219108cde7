import CloudSim
import Kernel
import LocalStore
import SyncContract

extension SDSEngine {
    /// EXT-2 / EXT-3: a downloaded record this process does not fully synchronize (its model,
    /// or some keys it has values of) is remembered, so a process that synchronizes them
    /// downloads it again. Returns true when the record is skipped entirely.
    func skipsHere(_ record: CloudRecord, context: inout SDSContext) -> Bool {
        // The same entity on both sides: nothing is missing and the model is skipped only
        // when unsynchronized, which the full schema's guard below returns false for too.
        if synchronizesFullSchema { return false }
        guard let full = fullEntities.named(record.recordType),
              full.isSynchronized else { return false }
        let own = entities.named(record.recordType)
        let ownKeys = own?.synchronizedKeys ?? []
        let missing = full.synchronizedKeys.filter { !ownKeys.contains($0) }
        let skipsModel = own?.isSynchronized != true
        guard skipsModel || missing.contains(where: {
            record.fields[$0] != nil || record.fields[Self.overflowField] != nil
        }) else {
            return false
        }
        context.syncData.skipped[record.recordName] = record.recordType
        context.syncData.skippedRules[record.recordName] = isExtension ? "EXT-2" : "EXT-3"
        effects.addTrace(detailed: context.isTracing,
            kind: skipsModel ? "download.record-skipped" : "download.keys-skipped",
            details: [TraceField("record", .string(record.recordName)),
                      TraceField("keys", .list((skipsModel ? [] : missing).map { .string($0) }))],
            rules: [isExtension ? "EXT-2" : "EXT-3"]
        )
        return skipsModel
    }

    /// Records other processes skipped that this one synchronizes, to download again.
    func recordsToCatchUp(context: SDSContext) -> [String] {
        // (Asked at every synchronization; nothing is skipped, most of the time.)
        guard !context.syncData.skipped.isEmpty else { return [] }
        return context.syncData.skipped.keys.sorted().filter { name in
            guard let type = context.syncData.skipped[name] else { return false }
            guard let own = entities.named(type), own.isSynchronized,
                  let full = fullEntities.named(type) else { return false }
            return own.synchronizedKeys.count == full.synchronizedKeys.count
        }
    }

    /// Applies deletions other processes skipped, for models this one synchronizes.
    func applySkippedDeletions(context: inout SDSContext) {
        guard !context.syncData.skippedDeletions.isEmpty else { return }
        let names = context.syncData.skippedDeletions.keys.sorted().filter {
            entities.named(context.syncData.skippedDeletions[$0] ?? "")?.isSynchronized == true
        }
        guard !names.isEmpty else { return }
        var deletions: [RecordDeletion] = []
        var rules: Set<String> = []
        for name in names {
            deletions.append(RecordDeletion(recordName: name,
                recordType: context.syncData.skippedDeletions[name] ?? ""))
            context.syncData.skippedDeletions[name] = nil
            rules.insert(context.syncData.skippedRules.removeValue(forKey: name) ?? "EXT-2")
        }
        effects.addTrace(detailed: context.isTracing,
            kind: "catch-up.deletions",
            details: [TraceField("records", .list(names.map { .string($0) }))],
            rules: rules.sorted()
        )
        applyPage(DownloadPage(sharedZone: nil, records: [], deletions: deletions,
            token: ZoneChangeToken(zone: appZone(context), incarnation: 0, sequence: 0, epoch: 0),
            moreComing: false),
                  resolution: PageResolution(), context: &context)
    }

    /// The answer to a catch-up fetch: found records are stored like downloaded ones, gone
    /// ones are deletions.
    func catchUp(_ results: [ItemResult], context: inout SDSContext) {
        var records: [CloudRecord] = []
        var deletions: [RecordDeletion] = []
        var rules: Set<String> = []
        for result in results {
            switch result {
            case .saved(let record):
                records.append(record)
                context.syncData.skipped[record.recordName] = nil
                rules.insert(context.syncData.skippedRules.removeValue(forKey: record.recordName)
                    ?? "EXT-2")
            case .failed(let name, let error) where error.code == .unknownItem:
                deletions.append(RecordDeletion(recordName: name,
                    recordType: context.syncData.skipped[name] ?? ""))
                context.syncData.skipped[name] = nil
                rules.insert(context.syncData.skippedRules.removeValue(forKey: name) ?? "EXT-2")
            default:
                continue
            }
        }
        effects.addTrace(detailed: context.isTracing,
            kind: "catch-up.records",
            details: [TraceField("records", .list(records.map { .string($0.recordName) })),
                      TraceField("gone", .list(deletions.map { .string($0.recordName) }))],
            rules: rules.sorted()
        )
        let read = readOverflow(records, deletions: deletions, context: &context)
        let page = DownloadPage(
            sharedZone: nil, records: read, deletions: deletions,
            token: ZoneChangeToken(zone: appZone(context), incarnation: 0, sequence: 0, epoch: 0),
            moreComing: false)
        let resolution = resolvePage(page, context: &context)
        applyPage(page, resolution: resolution, context: &context)
    }

    /// ID-7: records uploaded before an identity was configured keep their names; only
    /// models without a record yet are named by their identity.
    func keepNamesFromBeforeIdentities(context: SDSContext) {
        var kept: [String] = []
        for id in context.syncData.records.boundModels {
            guard let name = context.syncData.recordName(of: id),
                  !context.syncData.changeTag(of: name).isNil,
                  let model = context.store.model(id), let entity = entities.named(model.entity),
                  !entity.identity.isEmpty,
                  let identityName = identityRecordName(of: id, entity: entity,
                      store: context.store),
                  identityName != name else { continue }
            kept.append(name)
        }
        guard !kept.isEmpty else { return }
        effects.addTrace(detailed: context.isTracing,
            kind: "identity.names-kept",
            details: [TraceField("records", .list(kept.map { .string($0) }))],
            rules: ["ID-7"]
        )
    }
}
