extension RecordBatch {
    /// Writes the successful saves in request order, then the deletes, then their cascades.
    mutating func apply(_ verdicts: [SaveVerdict], deleteErrors: [CloudError?]) {
        for (save, verdict) in zip(request.saves, verdicts) {
            guard let plan = verdict.plan else {
                results.append(
                    .failed(
                        recordName: save.record.recordName,
                        verdict.error ?? CloudMessages.unknownItem))
                continue
            }
            results.append(.saved(write(plan)))
        }
        var deleted: [String] = []
        for (name, error) in zip(request.deletes, deleteErrors) {
            if let error {
                results.append(.failed(recordName: name, error))
                continue
            }
            // Deleting a record that does not exist succeeds (docs/CLOUDSIM.md).
            if let record = zone.delete(named: name) {
                notes.append(CloudNotes.recordDeleted(record, device: client.device))
                deleted.append(name)
                changedZone = true
            }
            results.append(.deleted(recordName: name))
        }
        cascade(from: deleted)
    }

    /// Stamps the server's system fields on a planned save and stores it.
    private mutating func write(_ plan: PlannedSave) -> CloudRecord {
        var record = plan.record
        changeTagCounter += 1
        record.changeTag = "ct\(changeTagCounter)"
        record.creationTime = plan.previous?.creationTime ?? now
        record.modificationTime = now
        record.lastModifiedBy = client.device
        if plan.isRecreation {
            notes.append(
                CloudNotes.recordRecreated(record, policy: request.policy, device: client.device))
        }
        zone.write(record)
        developmentSchema.adopt(plan, environment: configuration.environment)
        notes.append(
            CloudNotes.recordSaved(
                record, changedKeys: plan.writtenKeys, policy: request.policy, device: client.device
            ))
        changedZone = true
        return record
    }

    /// Deletes, breadth first, every record whose parent was deleted, each leaving a tombstone
    /// (immediate in a custom zone; not listed in the results, CLOUDKIT.md section 6).
    private mutating func cascade(from deleted: [String]) {
        guard !deleted.isEmpty else { return }
        var children: [String: [String]] = [:]
        for name in zone.records.keys.sorted() {
            guard let parent = zone.records[name]?.record.parent else { continue }
            children[parent, default: []].append(name)
        }
        var queue = deleted
        var index = 0
        let bound = queue.count + zone.records.count
        while index < queue.count {
            precondition(index < bound, "cascade visits each record once")
            let parent = queue[index]
            index += 1
            for child in children[parent] ?? [] {
                guard let record = zone.delete(named: child) else { continue }
                notes.append(CloudNotes.recordCascadeDeleted(record, parent: parent))
                queue.append(child)
            }
        }
    }
}

extension Schema {
    /// In development, records the type of a save and the schema type of each key it writes
    /// with a value, unless already fixed (SCHEMA-2). Production never changes by a save.
    mutating func adopt(_ plan: PlannedSave, environment: CloudEnvironment) {
        guard environment == .development else { return }
        let recordType = plan.record.recordType
        addType(recordType)
        for key in plan.writtenKeys where fieldType(key, of: recordType) == nil {
            guard let type = plan.record.fields[key]?.fixedSchemaType else { continue }
            addField(key, type: type, to: recordType)
        }
    }
}
