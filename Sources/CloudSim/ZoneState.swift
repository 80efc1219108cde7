/// One record zone as the server holds it: its life (incarnation, live, purged), its live
/// records and the change log its feed is served from.
///
/// The state outlives a deletion so that a re-created zone gets a new incarnation and a purge
/// can be told apart from a plain deletion.
struct ZoneState {
    let id: ZoneID
    /// Which life of the zone this is; 0 until first created.
    private(set) var incarnation: Int64 = 0
    private(set) var isLive = false
    /// Purged by the user (`userDeletedZone`) and not created again since.
    private(set) var isPurged = false
    /// Deleted by CloudKit after the user reset their encrypted data, not created again since.
    private(set) var wasResetForEncryptedData = false
    /// Last change sequence used in this incarnation.
    private(set) var sequence: Int64 = 0
    /// The live records, in a dense table (see `RecordTable`).
    private(set) var records: RecordTable
    /// The tombstone of each deleted record not written since, by name (`tombstone(named:)`,
    /// `sortedTombstones`).
    // The empty tables are made with `init()`: a literal was built from an (empty) list of
    // pairs, for every state made (one a request: `modifyRecordsInOneZone` swaps one in).
    private var tombstones: [HashedRecordName: Tombstone] = Dictionary()
    /// The earlier versions of each live record since it was last created, oldest first, for
    /// the ancestor record of `serverRecordChanged`; dropped when the record is deleted. The
    /// current version is the one in `records`, so a record written once has no entry here
    /// (no second full copy of the current version).
    private var versions: [HashedRecordName: [CloudRecord]] = Dictionary()
    /// (sequence, record name) in sequence order; an entry is current when the record or
    /// tombstone of that name still carries its sequence.
    private(set) var log: [LogEntry] = []
    /// Names of the live share records (`cloudkit.share`), so a zone without shares skips
    /// every sharing computation.
    private(set) var shareRecordNames: Set<String> = Set()
    /// The devices that fetched this life of the zone without a token, in the order of their
    /// first such fetch (`firstTokenlessFetch(by:)`).
    private var tokenlessFetchers: [String] = []
    /// `id.description`, once rendered (`idDescription()`).
    private var renderedID: String?

    init(id: ZoneID) {
        self.id = id
        self.records = RecordTable(zone: id)
    }

    /// `id.description`, rendered on first need and kept: the notes of every applied write
    /// name the zone, and building the string (a heap string, mostly) cost more than them.
    mutating func idDescription() -> String {
        if let renderedID { return renderedID }
        let rendered = id.description
        renderedID = rendered
        return rendered
    }

    /// A database's default zone: live from the start (it is never created, so no database
    /// feed entry and no `zone.created` note), life 1.
    static func defaultZone(_ id: ZoneID) -> ZoneState {
        precondition(id.isDefaultZone, "\(id) is not a default zone")
        var state = ZoneState(id: id)
        state.create()
        return state
    }

    /// Starts a new life of the zone: empty, new incarnation, not purged.
    mutating func create() {
        precondition(!isLive, "zone \(id) is already live")
        incarnation += 1
        isLive = true
        isPurged = false
        wasResetForEncryptedData = false
        sequence = 0
        records = RecordTable(zone: id)
        tombstones = [:]
        versions = [:]
        log = []
        shareRecordNames = []
        tokenlessFetchers = []
    }

    /// Ends the zone's life with all its records; `purged` marks a user deletion,
    /// `encryptedDataReset` a deletion after the user reset their encrypted data.
    mutating func remove(purged: Bool, encryptedDataReset: Bool = false) {
        precondition(isLive, "zone \(id) is not live")
        isLive = false
        isPurged = purged
        wasResetForEncryptedData = encryptedDataReset
        records = RecordTable(zone: id)
        tombstones = [:]
        versions = [:]
        log = []
        shareRecordNames = []
        tokenlessFetchers = []
    }

    /// Notes a fetch of this life of the zone without a token by `device`; returns whether
    /// it is the device's first (docs/CLOUDSIM.md row 30: only that one reports the
    /// tombstones of the records the device created).
    mutating func firstTokenlessFetch(by device: String) -> Bool {
        if tokenlessFetchers.contains(device) { return false }
        tokenlessFetchers.append(device)
        return true
    }

    /// Notes that `device` was answered `changeTokenExpired` for this life of the zone: its
    /// next fetch without a token recovers from the expiry, so it counts as not the first and
    /// brings no deletions (OBX-24 takes precedence over docs/CLOUDSIM.md row 30).
    mutating func forgoFirstTokenlessFetch(by device: String) {
        if tokenlessFetchers.contains(device) { return }
        tokenlessFetchers.append(device)
    }

    /// Writes a record (new or updated): bumps the sequence, replaces any tombstone.
    mutating func write(_ record: CloudRecord) {
        write(record, nameHash: RecordNameHash.hash(record.recordName))
    }

    /// `write(_:)` of a record whose name's `RecordNameHash.hash` the caller carries (a
    /// planned save's), used for the table, the tombstones and versions, and the log entry.
    mutating func write(_ record: CloudRecord, nameHash: Int) {
        precondition(isLive, "write into zone \(id) that is not live")
        precondition(record.zone == id, "record \(record.recordName) written into the wrong zone")
        precondition(record.changeTag != nil, "a stored record always has a change tag")
        sequence += 1
        let name = record.recordName
        if let previous = records.write(record, sequence: sequence, nameHash: nameHash) {
            versions[HashedRecordName(name, nameHash: nameHash), default: []].append(previous)
        } else if !tombstones.isEmpty {
            // Only a record that was not live can have a tombstone (a deletion leaves one, a
            // write removes it): an update looks up no name here, nor does a zone without any.
            tombstones[HashedRecordName(name, nameHash: nameHash)] = nil
        }
        log.append(LogEntry(sequence: sequence, recordName: name, nameHash: nameHash))
        if record.isShare { shareRecordNames.insert(name) }
    }

    /// Deletes a live record, leaving a tombstone; returns the deleted record.
    @discardableResult
    mutating func delete(named name: String) -> CloudRecord? {
        precondition(isLive, "delete in zone \(id) that is not live")
        let nameHash = RecordNameHash.hash(name)
        guard let stored = records.remove(named: name, nameHash: nameHash) else { return nil }
        let key = HashedRecordName(name, nameHash: nameHash)
        if !versions.isEmpty { versions[key] = nil }
        sequence += 1
        tombstones[key] = Tombstone(
            recordName: name, recordType: stored.record.recordType, sequence: sequence,
            createdBy: stored.createdBy)
        log.append(LogEntry(sequence: sequence, recordName: name, nameHash: nameHash))
        if !shareRecordNames.isEmpty { shareRecordNames.remove(name) }
        return stored.record
    }

    /// The version of a live record that carried `changeTag`, if it is one of its versions
    /// since it was last created: the oldest such, then the current one.
    func version(of name: String, changeTag: String) -> CloudRecord? {
        if !versions.isEmpty,
            let earlier = versions[HashedRecordName(name)]?.first(where: {
                $0.changeTag == changeTag
            })
        {
            return earlier
        }
        guard let current = records[name]?.record, current.changeTag == changeTag else {
            return nil
        }
        return current
    }

    /// The version a live record had before its last save; nil when it was saved once.
    func previousVersion(of name: String) -> CloudRecord? {
        guard records[name] != nil, !versions.isEmpty else { return nil }
        return versions[HashedRecordName(name)]?.last
    }

    /// Whether the zone holds a live share record.
    var hasShares: Bool { !shareRecordNames.isEmpty }

    /// The tombstone of a deleted record of that name not written since.
    func tombstone(named name: String) -> Tombstone? {
        tombstones.isEmpty ? nil : tombstones[HashedRecordName(name)]
    }

    /// `tombstone(named:)` of a name whose `RecordNameHash.hash` the caller carries (a log
    /// entry keeps it).
    func tombstone(named name: String, nameHash: Int) -> Tombstone? {
        tombstones.isEmpty ? nil : tombstones[HashedRecordName(name, nameHash: nameHash)]
    }

    /// Every tombstone, sorted by record name.
    var sortedTombstones: [Tombstone] {
        tombstones.values.sorted { $0.recordName < $1.recordName }
    }
}

/// A live record with the sequence of its latest save.
struct StoredRecord: Hashable {
    var record: CloudRecord
    var sequence: Int64
    /// The device whose save created the record.
    var createdBy: String? = nil
}

/// What remains of a deleted record for the change feed.
struct Tombstone: Hashable {
    var recordName: String
    var recordType: String
    var sequence: Int64
    /// The device whose save created the deleted record (FORUM-813286), if known.
    var createdBy: String? = nil
}

/// One step of a zone's change log.
struct LogEntry: Hashable {
    let sequence: Int64
    let recordName: String
    /// `RecordNameHash.hash(recordName)`, kept so that a zone's feed finds the entry's record
    /// without hashing its name again (every entry after a token is looked up on every
    /// fetch). Constant, as the name.
    let nameHash: Int

    init(sequence: Int64, recordName: String, nameHash: Int) {
        self.sequence = sequence
        self.recordName = recordName
        self.nameHash = nameHash
    }

    init(sequence: Int64, recordName: String) {
        self.init(
            sequence: sequence, recordName: recordName,
            nameHash: RecordNameHash.hash(recordName))
    }
}
