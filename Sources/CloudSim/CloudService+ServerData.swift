import Kernel

/// Server data a real cloud can serve that no client of the scenario saved (docs/CLOUDSIM.md,
/// *Server data*): a record the server holds as written (another app version, a record type
/// no engine knows, a value of another type) and an older version delivered after a newer one.
extension CloudService {
    /// Stores a record as the server holds it, past every check of a save (schema, types,
    /// references): new change tag and times, an entry in the zone's change feed, pushes to
    /// the owner's subscribed devices. Nil when the zone is not live.
    public func writeServerRecord(_ record: CloudRecord, now: SimTime) -> CloudOutcome? {
        guard zoneStates.peek(record.zone, { $0.isLive }) == true else { return nil }
        var record = record
        let existing = zoneStates.peek(record.zone) { $0.records[record.recordName]?.record }
        changeTagCounter += 1
        record.changeTag = RecordBatch.changeTag(changeTagCounter)
        record.creationTime = (existing ?? nil)?.creationTime ?? now
        record.modificationTime = now
        _ = zoneStates.peek(record.zone) { $0.write(record) }
        let effects = propagate(zone: record.zone, originator: nil, losses: [:])
        let note = CloudNote(kind: "record.server-written", details: [
            NoteField("zone", record.zone.description),
            NoteField("recordName", record.recordName),
            NoteField("recordType", record.recordType),
            NoteField("changeTag", record.changeTag ?? ""),
        ])
        return CloudOutcome(
            response: .recordsModified([.saved(record)]), pushes: effects.pushes,
            notes: [note] + effects.notes)
    }

    /// The next fetch of the zone, by any device, ends its page with the record's version
    /// before its last save; false when the record is not live or was saved only once.
    public func serveOldVersion(of name: String, in zone: ZoneID) -> Bool {
        // `peek` wraps the optional version in its own optional (the zone may be missing).
        guard case .some(.some) = zoneStates.peek(zone, { $0.previousVersion(of: name) }) else {
            return false
        }
        oldVersionsToServe.append(OldVersionToServe(zone: zone, recordName: name))
        return true
    }

    /// A zone fetch's answer with the old versions waiting for that zone, after its records;
    /// each is served once.
    func addingOldVersions(to outcome: CloudOutcome, zone: ZoneID) -> CloudOutcome {
        guard case .zoneChanges(let records, let deletions, let token, let moreComing) =
            outcome.response
        else { return outcome }
        var served: [CloudRecord] = []
        var notes = outcome.notes
        for item in oldVersionsToServe where item.zone == zone {
            guard let old = zoneStates.peek(zone, { $0.previousVersion(of: item.recordName) }),
                  let record = old
            else { continue }
            served.append(record)
            notes.append(CloudNote(kind: "record.old-version-served", details: [
                NoteField("zone", zone.description),
                NoteField("recordName", record.recordName),
                NoteField("changeTag", record.changeTag ?? ""),
            ]))
        }
        oldVersionsToServe.removeAll { $0.zone == zone }
        return CloudOutcome(
            response: .zoneChanges(
                records: records + served, deletions: deletions, token: token,
                moreComing: moreComing),
            pushes: outcome.pushes, notes: notes)
    }
}

/// `serve-old-version`: a record whose previous version the next fetch of its zone serves.
struct OldVersionToServe: Hashable, Sendable {
    var zone: ZoneID
    var recordName: String
}
