/// Why an account lost (or never had) a zone in its shared database; the `reason` of an
/// `access.refused` or `shared-zone.removed` note.
public enum AccessLoss: String, Hashable, Sendable {
    /// The owner removed the participant.
    case removed
    /// The participant left (deleted the share on their side) or declined the invitation.
    case left
    /// The owner stopped sharing (deleted the share record, or the root with it).
    case shareStopped = "share-stopped"
    /// The owner's zone was deleted or purged.
    case zoneDeleted = "zone-deleted"
}

/// One participant's view of one owner zone: the records it may see through its shared
/// database, with a change log of its own so that its feed reports exactly what entered,
/// changed in or left the view, and nothing else of the zone (no record, no tombstone).
///
/// A view has lives like a zone has incarnations: gaining access starts a new, empty life;
/// losing it ends the life. Tokens carry the life, so a token of an earlier life is expired.
struct SharedZoneView {
    let participant: String
    let zone: ZoneID
    private(set) var life: Int64 = 0
    private(set) var isLive = false
    /// The owner zone's incarnation this life follows.
    private(set) var zoneIncarnation: Int64 = 0
    private(set) var sequence: Int64 = 0
    /// Visible records: the zone sequence of the version last reported, and the view's
    /// sequence of that report.
    private(set) var entries: [String: Entry] = [:]
    /// Records that left the view (deleted, moved out, no longer shared).
    private(set) var tombstones: [String: Tombstone] = [:]
    private(set) var log: [LogEntry] = []

    struct Entry: Hashable {
        var zoneSequence: Int64
        var recordType: String
        var sequence: Int64
    }

    init(participant: String, zone: ZoneID) {
        self.participant = participant
        self.zone = zone
    }

    /// Starts a new life following the given incarnation of the owner's zone.
    mutating func begin(zoneIncarnation: Int64) {
        precondition(!isLive, "view of \(zone) for \(participant) is already live")
        life += 1
        isLive = true
        self.zoneIncarnation = zoneIncarnation
        sequence = 0
        entries = [:]
        tombstones = [:]
        log = []
    }

    /// Ends the life: the zone leaves the participant's shared database.
    mutating func end() {
        precondition(isLive, "view of \(zone) for \(participant) is not live")
        isLive = false
        entries = [:]
        tombstones = [:]
        log = []
    }

    /// Brings the view up to the zone's visible records (`visible`, sorted): every record new
    /// to the view or changed since it was reported gets a new sequence, every record no
    /// longer visible leaves a tombstone. Returns whether anything changed.
    mutating func update(visible: [String], in zone: ZoneState) -> Bool {
        precondition(isLive, "update of a view that is not live")
        let before = sequence
        var stillVisible: Set<String> = []
        for name in visible {
            guard let stored = zone.records[name] else { continue }
            stillVisible.insert(name)
            if entries[name]?.zoneSequence == stored.sequence { continue }
            sequence += 1
            entries[name] = Entry(
                zoneSequence: stored.sequence, recordType: stored.record.recordType,
                sequence: sequence)
            tombstones[name] = nil
            log.append(LogEntry(sequence: sequence, recordName: name))
        }
        for name in entries.keys.sorted() where !stillVisible.contains(name) {
            guard let entry = entries.removeValue(forKey: name) else { continue }
            sequence += 1
            tombstones[name] = Tombstone(
                recordName: name, recordType: entry.recordType, sequence: sequence)
            log.append(LogEntry(sequence: sequence, recordName: name))
        }
        return sequence != before
    }

    /// Names of the records in the view, sorted.
    var visibleNames: [String] { entries.keys.sorted() }

    /// One page of the view's feed after `token`: records as the zone holds them now,
    /// deletions by name and type; no tombstones without a token (docs/CLOUDSIM.md row 30).
    func changes(
        after token: Int64, limit: Int, includeTombstones: Bool, in zone: ZoneState
    ) -> ZoneFeedPage {
        let found = ChangeLogPaging.page(
            log, after: token, limit: limit, finalSequence: sequence
        ) { entry -> LogEntry? in
            if let current = entries[entry.recordName] {
                return current.sequence == entry.sequence ? entry : nil
            }
            guard let tombstone = tombstones[entry.recordName],
                tombstone.sequence == entry.sequence
            else { return nil }
            return includeTombstones ? entry : nil
        }
        var page = ZoneFeedPage(
            records: [], deletions: [], resumeSequence: found.resumeSequence,
            moreComing: found.moreComing)
        for entry in found.items {
            if entries[entry.recordName] != nil, let stored = zone.records[entry.recordName] {
                page.records.append(stored.record)
            } else if let tombstone = tombstones[entry.recordName] {
                page.deletions.append(
                    RecordDeletion(
                        recordName: tombstone.recordName, recordType: tombstone.recordType))
            }
        }
        return page
    }
}
