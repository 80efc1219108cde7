import Kernel

/// One `modifyRecords` request worked out on copies of the zone and schema, so that an atomic
/// request that fails leaves the cloud untouched: the service commits the copies only when
/// `isApplied`.
///
/// Order of the per-save checks: duplicate name, next-upload throttle, rejection, zone,
/// names, save policy, record type, list types, size, schema, quota. Then parent references
/// across the whole request, then atomicity.
struct RecordBatch {
    let request: ModifyRecordsRequest
    let client: CloudClient
    let now: SimTime
    let configuration: CloudConfiguration
    let productionSchema: Schema

    /// Working copies.
    var zone: ZoneState
    var developmentSchema: Schema
    var account: AccountState
    var changeTagCounter: Int64

    /// Outputs.
    var results: [ItemResult] = []
    var notes: [CloudNote] = []
    var isApplied = false
    /// Whether the zone's contents changed (something was saved or deleted).
    var changedZone = false

    init(
        request: ModifyRecordsRequest, client: CloudClient, now: SimTime, service: CloudService,
        zone: ZoneState, account: AccountState
    ) {
        self.request = request
        self.client = client
        self.now = now
        self.configuration = service.configuration
        self.productionSchema = service.productionSchema
        self.zone = zone
        self.developmentSchema = service.developmentSchema
        self.account = account
        self.changeTagCounter = service.changeTagCounter
    }

    /// Decides every item, then applies the request unless it is atomic and an item failed.
    mutating func run() {
        let duplicates = duplicateItems()
        var verdicts = planSaves(duplicateSaves: duplicates.saves)
        let deleteErrors: [CloudError?] = request.deletes.indices.map { index in
            duplicates.deletes.contains(index)
                ? CloudMessages.duplicate(request.deletes[index]) : nil
        }
        checkReferences(&verdicts, deleteErrors: deleteErrors)
        let failedCount =
            verdicts.filter { $0.error != nil }.count + deleteErrors.compactMap { $0 }.count
        if request.atomic && failedCount > 0 {
            results = Self.atomicFailure(request, verdicts: verdicts, deleteErrors: deleteErrors)
            notes.append(
                CloudNotes.batchRolledBack(
                    zone: request.zone, failedCount: failedCount, device: client.device))
        } else {
            apply(verdicts, deleteErrors: deleteErrors)
            isApplied = true
        }
        precondition(results.count == request.itemCount, "one result per item")
    }

    /// Indexes of saves and deletes whose record name already came earlier in the request.
    private func duplicateItems() -> (saves: Set<Int>, deletes: Set<Int>) {
        var seen = Set<String>()
        var saves = Set<Int>()
        var deletes = Set<Int>()
        for (index, save) in request.saves.enumerated()
        where !seen.insert(save.record.recordName).inserted {
            saves.insert(index)
        }
        for (index, name) in request.deletes.enumerated() where !seen.insert(name).inserted {
            deletes.insert(index)
        }
        return (saves, deletes)
    }

    /// Every save's verdict, ignoring parent references; consumes the next-upload throttle.
    private mutating func planSaves(duplicateSaves: Set<Int>) -> [SaveVerdict] {
        var planningSchema = developmentSchema
        var verdicts: [SaveVerdict] = []
        let throttle = account.partialThrottle
        for (index, save) in request.saves.enumerated() {
            let name = save.record.recordName
            if duplicateSaves.contains(index) {
                verdicts.append(.fail(CloudMessages.duplicate(name)))
            } else if let throttle, index < throttle.recordCount {
                verdicts.append(
                    .fail(CloudMessages.requestRateLimited(retryAfter: throttle.retryAfter)))
            } else if let code = account.rejectedRecords[name] {
                verdicts.append(.fail(CloudMessages.rejected(name, code: code)))
            } else {
                let verdict = plan(save, schema: planningSchema)
                if let plan = verdict.plan {
                    planningSchema.adopt(plan, environment: configuration.environment)
                }
                verdicts.append(verdict)
            }
        }
        if !request.saves.isEmpty { account.partialThrottle = nil }
        return verdicts
    }

    /// The verdict on one save against the server's copy.
    private func plan(_ save: RecordSave, schema: Schema) -> SaveVerdict {
        let client = save.record
        guard client.zone == request.zone else {
            return .fail(CloudMessages.wrongZone(client.recordName))
        }
        if let error = RecordValidation.nameError(of: save) { return .fail(error) }
        let server = zone.records[client.recordName]?.record
        if let error = policyError(save, server: server) { return .fail(error) }
        if let server, server.recordType != client.recordType {
            return .fail(
                CloudMessages.recordTypeChange(
                    client.recordName, from: server.recordType, to: client.recordType))
        }
        let planned = merge(save, onto: server)
        for key in planned.writtenKeys where planned.record.fields[key]?.isHomogeneous == false {
            return .fail(CloudMessages.mixedList(key))
        }
        if planned.record.recordSizeBytes > configuration.maxRecordSizeBytes {
            return .fail(CloudMessages.recordTooLarge)
        }
        if let error = schemaError(of: planned, development: schema) { return .fail(error) }
        if account.isQuotaFull { return .fail(CloudMessages.quotaExceeded) }
        return .write(planned)
    }

    /// The change-tag check of `ifServerRecordUnchanged` (CLOUDKIT.md 10.1); the other
    /// policies never check.
    private func policyError(_ save: RecordSave, server: CloudRecord?) -> CloudError? {
        if !configuration.recreatesDeletedRecords, server == nil, save.record.changeTag != nil {
            // A test variant without the recreation path behind LIM-1.
            return CloudMessages.unknownItem
        }
        guard request.policy == .ifServerRecordUnchanged else { return nil }
        switch (server, save.record.changeTag) {
        case (nil, nil):
            return nil
        case (nil, .some):
            return CloudMessages.unknownItem
        case (let server?, nil):
            return CloudMessages.insertCollision(server)
        case (let server?, let tag?):
            return tag == server.changeTag ? nil : CloudMessages.oplock(server)
        }
    }

    /// The server record after the save: edited keys (all sent keys under `allKeys`) written
    /// over the server's; a written key without a value removes it; the parent comes from
    /// the client.
    private func merge(_ save: RecordSave, onto server: CloudRecord?) -> PlannedSave {
        let client = save.record
        var keys = Set(save.changedKeys)
        if request.policy == .allKeys { keys.formUnion(client.fields.keys) }
        let writtenKeys = keys.sorted()
        var record =
            server
            ?? CloudRecord(
                recordType: client.recordType, recordName: client.recordName, zone: request.zone)
        for key in writtenKeys { record.fields[key] = client.fields[key] }
        record.parent = client.parent
        let isRecreation =
            server == nil && client.changeTag != nil
            && zone.tombstones[client.recordName] != nil
        return PlannedSave(
            record: record, writtenKeys: writtenKeys, previous: server, isRecreation: isRecreation)
    }

    /// SCHEMA-2: development fixes a field's type on its first save with a value; production
    /// rejects types and fields it lacks.
    private func schemaError(of plan: PlannedSave, development: Schema) -> CloudError? {
        let recordType = plan.record.recordType
        let production = configuration.environment == .production
        if production && !productionSchema.hasType(recordType) {
            return CloudMessages.productionType(recordType)
        }
        let schema = production ? productionSchema : development
        for key in plan.writtenKeys {
            guard let value = plan.record.fields[key] else { continue }
            guard let defined = schema.fieldType(key, of: recordType) else {
                if production { return CloudMessages.productionField(key, recordType: recordType) }
                continue
            }
            guard !value.fits(schemaType: defined) else { continue }
            if production { return CloudMessages.productionField(key, recordType: recordType) }
            return CloudMessages.typeMismatch(
                key: key, recordType: recordType, sent: value.schemaTypeName, defined: defined)
        }
        return nil
    }

    /// A save whose parent will not exist after the request fails `referenceViolation`: the
    /// parent must be live and not deleted by the request, or saved by it successfully.
    /// Repeated until stable, since a failing parent save fails its new children too.
    private func checkReferences(_ verdicts: inout [SaveVerdict], deleteErrors: [CloudError?]) {
        var available = Set(zone.records.keys)
        for (index, name) in request.deletes.enumerated() where deleteErrors[index] == nil {
            available.remove(name)
        }
        for plan in verdicts.compactMap(\.plan) { available.insert(plan.record.recordName) }
        var changed = true
        var rounds = 0
        while changed {
            precondition(rounds <= verdicts.count, "reference check does not settle")
            rounds += 1
            changed = false
            for index in verdicts.indices {
                guard let plan = verdicts[index].plan, let parent = plan.record.parent,
                    !available.contains(parent)
                else { continue }
                verdicts[index] = .fail(
                    CloudMessages.referenceViolation(plan.record.recordName, parent: parent))
                if plan.previous == nil { available.remove(plan.record.recordName) }
                changed = true
            }
        }
    }

    /// Results of an atomic request with a failure: real errors stay, the innocent items get
    /// `batchRequestFailed`.
    private static func atomicFailure(
        _ request: ModifyRecordsRequest, verdicts: [SaveVerdict], deleteErrors: [CloudError?]
    ) -> [ItemResult] {
        var results: [ItemResult] = []
        for (save, verdict) in zip(request.saves, verdicts) {
            let name = save.record.recordName
            results.append(
                .failed(recordName: name, verdict.error ?? CloudMessages.batchSaveFailed(name)))
        }
        for (name, error) in zip(request.deletes, deleteErrors) {
            results.append(
                .failed(recordName: name, error ?? CloudMessages.batchDeleteFailed(name)))
        }
        return results
    }
}
