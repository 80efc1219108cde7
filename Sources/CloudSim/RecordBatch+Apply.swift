extension RecordBatch {
    /// Writes the successful saves in request order, then the deletes, then their cascades,
    /// then what follows for shares (a stopped share clears its root's `share`, a deleted
    /// root takes its share with it).
    mutating func apply(_ verdicts: consuming [SaveVerdict], deleteErrors: [CloudError?]) {
        results.reserveCapacity(request.itemCount)
        // A note for each item applied, mostly: room for them at once, not grown one, two,
        // four... on every request.
        notes.reserveCapacity(notes.count + request.itemCount)
        // Every applied save is of the request's zone (`plan` checks): its name is rendered
        // once for their notes, not once a save (nor once a request: the zone keeps it).
        let zoneName = zone.idDescription()
        // Every planned write is applied below, in request order: the schema they were
        // planned against already adopted them.
        if let plannedSchema { developmentSchema = plannedSchema }
        // Read before the plans are moved out of their verdicts below.
        let links = configuration.childSaveChangesParentTag ? parentLinks(of: verdicts) : []
        // Each verdict moved out of the array (swapped with `.taken`): a verdict matched where
        // it is stored copied its planned save, two records.
        var pending = consume verdicts
        for index in request.saves.indices {
            var verdict = SaveVerdict.taken
            swap(&verdict, &pending[index])
            switch consume verdict {
            case .taken:
                preconditionFailure("a verdict is applied once")
            case .fail(let error):
                results.append(.failed(recordName: request.saves[index].record.recordName, error))
            case .write(var plan):
                write(&plan, zoneName: zoneName)
                // Only an `allKeys` save can overwrite keys: the others skip the call, which
                // copied the request's save out of its array.
                if plan.policy == .allKeys,
                    let note = CloudNotes.keysOverwritten(
                        request.saves[index], plan: plan, saved: plan.record)
                {
                    notes.append(note)
                }
                // The record moved out of the plan, which ends here, an empty one left in its
                // place: a copy retained every reference, then the plan released them.
                var saved = CloudRecord(
                    recordType: "", recordName: "", zone: ZoneID(owner: "", name: ""))
                swap(&saved, &plan.record)
                results.append(.saved(saved))
            }
        }
        if configuration.childSaveChangesParentTag { touchParents(links) }
        var deleted: [String] = []
        var removed: [CloudRecord] = []
        for (index, (name, error)) in zip(request.deletes, deleteErrors).enumerated() {
            if let error {
                results.append(.failed(recordName: name, error))
                continue
            }
            if sharing?.leaves.contains(index) == true {
                leave(shareNamed: name)
                results.append(.deleted(recordName: name))
                continue
            }
            // Deleting a record that does not exist succeeds by default (docs/CLOUDSIM.md;
            // `missingDeletes = .unknownItem` failed it in `run()`).
            if let record = zone.delete(named: name) {
                notes.append(CloudNotes.recordDeleted(record, device: client.device))
                deleted.append(name)
                removed.append(record)
                changedZone = true
            }
            results.append(.deleted(recordName: name))
        }
        // Most requests delete nothing: no empty list appended.
        if !deleted.isEmpty { removed += cascade(from: deleted) }
        if sharing != nil { maintainShares(after: removed) }
    }

    /// Stamps the server's system fields on a planned save's record, in place (no copy of the
    /// record stamped and returned), and stores it; `plan.record` is then the record saved.
    /// `zoneName` is the description of the request's zone.
    private mutating func write(_ plan: inout PlannedSave, zoneName: String) {
        changeTagCounter += 1
        plan.record.changeTag = Self.changeTag(changeTagCounter)
        plan.record.creationTime = plan.previous?.creationTime ?? now
        plan.record.modificationTime = now
        plan.record.lastModifiedBy = client.device
        // Accounts other than the zone owner's only: most saves have none to keep or clear.
        if otherAccount != nil || plan.record.sharing != nil || plan.previous?.sharing != nil {
            let creator = plan.previous == nil ? otherAccount : plan.previous?.creatorAccount
            if creator != plan.record.creatorAccount { plan.record.creatorAccount = creator }
            if otherAccount != plan.record.lastModifierAccount {
                plan.record.lastModifierAccount = otherAccount
            }
        }
        if plan.isRecreation {
            notes.append(
                CloudNotes.recordRecreated(
                    plan.record, policy: plan.policy, writtenKeys: plan.writtenKeys,
                    device: client.device))
        } else if plan.isCreationOverTombstone {
            notes.append(
                CloudNotes.recordCreatedOverTombstone(
                    plan.record, policy: plan.policy, device: client.device))
        }
        zone.write(plan.record, nameHash: plan.nameHash)
        // (`case .none`: comparing the schema with nil went through `Equatable`.)
        if case .none = plannedSchema {
            developmentSchema.adopt(plan, environment: configuration.environment)
        }
        notes.append(
            CloudNotes.recordSaved(
                plan.record, zoneName: zoneName, changedKeys: plan.writtenKeys,
                policy: plan.policy, device: client.device))
        changedZone = true
    }

    /// The change tag of a counter value: `ct` and the number. Written byte by byte: the
    /// number's description and the append cost more than the tag, on every stored change.
    static func changeTag(_ counter: Int64) -> String {
        TextConcatenation.prefixed("ct", counter)
    }

    /// `childSaveChangesParentTag`: each live parent of an applied save that the request did
    /// not save itself gets a new change tag, once per request, in request order of its first
    /// child ([CKRecord] `recordChangeTag`: saving a child can change the parent's tag). The
    /// parent keeps its fields and `lastModifiedBy`; it re-enters the zone's change feed.
    private mutating func touchParents(_ links: [ParentLink]) {
        let savedNames = Set(links.map(\.child))
        var touched: Set<String> = []
        for link in links {
            guard let parentName = link.parent,
                  !savedNames.contains(parentName), !touched.contains(parentName),
                  var parent = zone.records[parentName]?.record
            else { continue }
            touched.insert(parentName)
            changeTagCounter += 1
            parent.changeTag = Self.changeTag(changeTagCounter)
            parent.modificationTime = now
            zone.write(parent)
            notes.append(CloudNotes.parentTouched(parent, child: link.child))
            changedZone = true
        }
    }

    /// An applied save's record name and its planned record's parent, for `touchParents`.
    struct ParentLink {
        let child: String
        let parent: String?
    }

    /// The links of the saves that write, in request order.
    private func parentLinks(of verdicts: borrowing [SaveVerdict]) -> [ParentLink] {
        zip(request.saves, verdicts).compactMap { save, verdict in
            guard let plan = verdict.plan else { return nil }
            return ParentLink(child: save.record.recordName, parent: plan.record.parent)
        }
    }

    /// Stores a change of system fields only (`share`, participants): new change tag, time
    /// and device, no schema.
    private mutating func writeSystemChange(_ record: CloudRecord) {
        var record = record
        changeTagCounter += 1
        record.changeTag = Self.changeTag(changeTagCounter)
        record.modificationTime = now
        record.lastModifiedBy = client.device
        if otherAccount != record.lastModifierAccount { record.lastModifierAccount = otherAccount }
        zone.write(record)
        changedZone = true
    }

    /// Deletes, breadth first, every record that holds a `.deleteSelf` reference to a deleted
    /// record ([CKRecord.ReferenceAction] `deleteSelf`), each leaving a tombstone (immediate in
    /// a custom zone; not listed in the results, [CKModifyRecordsOperation]). A `parent` reference
    /// has the action `.none` and deletes nothing. Returns the records it deleted.
    private mutating func cascade(from deleted: [String]) -> [CloudRecord] {
        guard !deleted.isEmpty else { return [] }
        // target → (owned record, field), walking records and keys in sorted order.
        var owned: [String: [(record: String, field: String)]] = [:]
        // Only records holding an owning reference can be deleted by one: those are sorted,
        // not every record of the zone (most hold none; this ran on every deleting request).
        let owners = zone.records.unorderedNames { fields in
            fields.values.contains(where: \.hasOwningTarget)
        }
        for name in owners.sorted() {
            guard let record = zone.records[name]?.record else { continue }
            for key in record.sortedKeys {
                for target in record.fields[key]?.owningTargets ?? [] {
                    owned[target, default: []].append((name, key))
                }
            }
        }
        guard !owned.isEmpty else { return [] }
        var removed: [CloudRecord] = []
        var queue = deleted
        var index = 0
        let bound = queue.count + zone.records.count
        while index < queue.count {
            precondition(index < bound, "cascade visits each record once")
            let target = queue[index]
            index += 1
            for (name, field) in owned[target] ?? [] { // tidy: ordered (filled sorted)
                guard let record = zone.delete(named: name) else { continue }
                notes.append(CloudNotes.recordCascadeDeleted(record, target: target, field: field))
                removed.append(record)
                queue.append(name)
            }
        }
        return removed
    }

    /// A participant deleting the share record leaves: its entry becomes `removed` and the
    /// share stays for the others ([CKShare]; docs/CLOUDSIM.md *Sharing*).
    private mutating func leave(shareNamed name: String) {
        guard let participant = sharing?.participant, var share = zone.records[name]?.record,
            let entry = share.participants.firstIndex(where: { $0.account == participant })
        else { preconditionFailure("a leave was checked against the share's participants") }
        share.participants[entry].acceptanceStatus = .removed
        writeSystemChange(share)
        notes.append(
            CloudNotes.shareMembership(
                "share.left", zone: request.zone, share: name, account: participant,
                device: client.device))
        losses[participant] = .left
    }

    /// After the deletes: a share record the owner deleted clears its root's `share` (unless
    /// the root was saved in the request, which already cleared it); a deleted root deletes
    /// its share record.
    private mutating func maintainShares(after removed: [CloudRecord]) {
        guard let sharing else { return }
        let zoneID = request.zone
        for record in removed where record.isShare {
            let share = record.recordName
            let root = sharing.before.rootOfShare[share]
            notes.append(
                CloudNotes.shareDeleted(
                    zone: zoneID, share: share, root: root, reason: "stopped",
                    device: client.device))
            guard let root, var current = zone.records[root]?.record, current.share == share
            else { continue }
            current.share = nil
            writeSystemChange(current)
        }
        for record in removed where !record.isShare {
            guard let share = record.share, zone.records[share]?.record.isShare == true,
                zone.delete(named: share) != nil
            else { continue }
            notes.append(
                CloudNotes.shareDeleted(
                    zone: zoneID, share: share, root: record.recordName, reason: "root-deleted",
                    device: client.device))
            changedZone = true
        }
    }
}

extension Schema {
    /// In development, records the type of a save and the schema type of each key it writes
    /// with a value, unless already fixed (SCHEMA-2). Production never changes by a save;
    /// share records are system records and never enter a schema.
    mutating func adopt(_ plan: PlannedSave, environment: CloudEnvironment) {
        guard environment == .development, !plan.record.isShare else { return }
        let recordType = plan.record.recordType
        addType(recordType)
        for key in plan.writtenKeys where fieldType(key, of: recordType) == nil {
            guard let type = plan.record.fields[key]?.fixedSchemaType else { continue }
            addField(key, type: type, to: recordType)
        }
    }
}
