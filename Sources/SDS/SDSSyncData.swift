import CloudSim
import Kernel
import LocalStore
import SyncContract

/// A model's changes that were not uploaded yet (SYNC-1), per key.
///
/// Each key carries the version of its last edit, so an answer to an upload clears only the
/// keys that did not change again while the request was under way.
public struct PendingChange: Hashable, Sendable {
    /// The model has no record in iCloud yet: upload every synchronized value.
    public var isInsert: Bool
    /// Changed keys → version of the last local edit of that key.
    public var keys: [String: Int64]
    /// ADOPT-1: the model was saved while nothing observed it (or must be uploaded again to a
    /// new account or zone): it never overwrites iCloud (ADOPT-2).
    public var isAdoption: Bool
    /// ERR-6 / LIM-5: record names of the parents this change moved the model away from.
    public var movedFrom: [String]
    /// ADOPT-3: keys the app edited after the model was queued for adoption; they are
    /// uploaded like any change, while the record wins for the others.
    public var adoptionEdits: [String] = []

    /// The keys whose local values win over a downloaded record (SYNC-4): all pending keys,
    /// but for a model waiting to be adopted only those edited since (ADOPT-2, ADOPT-3).
    public var keysThatWin: [String: Int64] {
        guard isAdoption else { return keys }
        return keys.filter { adoptionEdits.contains($0.key) }
    }

    public init(isInsert: Bool = false, keys: [String: Int64] = [:], isAdoption: Bool = false) {
        self.isInsert = isInsert
        self.keys = keys
        self.isAdoption = isAdoption
        self.movedFrom = []
    }

    public var sortedKeys: [String] { keys.keys.sorted() }

    /// Whether the key has a pending change. A few keys are compared one by one (property
    /// names are short strings, which compare as two words), more are looked up by hash:
    /// hashing every name would be paid for each key of every upload's saves.
    func hasKey(_ key: String) -> Bool {
        Self.holds(key, in: keys)
    }

    /// `hasKey` over a map of keys of a pending change (`keys`, `keysThatWin`).
    static func holds(_ key: String, in keys: [String: Int64]) -> Bool {
        if keys.count > keysComparedInPlace { return keys[key] != nil }
        return keys.keys.contains { $0 == key }
    }

    /// Up to this many keys, `hasKey` compares them rather than hashing.
    static let keysComparedInPlace = 6
}

/// A save sent to iCloud whose answer has not arrived yet (SYNC-4): the versions of the keys
/// it carried and the change tag of the record it was made on top of (nil: a new record).
///
/// Kept on disk, so a relaunch after a kill between the send and the answer knows that the
/// keys may already be in iCloud: once a download brings the record with another change tag
/// than that one, those keys count as uploaded and the downloaded values win for them,
/// instead of the old values being sent again over newer saves of other devices.
public struct UnansweredUpload: Hashable, Sendable {
    public var keys: [String: Int64]
    public var changeTag: String?

    public init(keys: [String: Int64], changeTag: String?) {
        self.keys = keys
        self.changeTag = changeTag
    }
}

/// A deletion waiting to be uploaded (DEL-1): the record's name and type.
public struct PendingDeletion: Hashable, Sendable {
    public var recordName: String
    public var recordType: String

    public init(recordName: String, recordType: String) {
        self.recordName = recordName
        self.recordType = recordType
    }
}

/// What the `sds` engine keeps about iCloud next to the store: on disk, it survives a kill.
///
/// A value with copy-on-write storage: its fields (`Fields`) sit behind one reference, so moving
/// the sync data (into a context for an event, back into the device's box, into an observation)
/// moves or retains one pointer instead of a struct of three dozen fields (each of its collections
/// retained and released on a copy). Reading a field reads it in place; changing one first copies
/// the storage if another value shares it (`makeUnique`), which the lent path never does: the
/// device lends the only reference (docs/BENCH.md).
public struct SDSSyncData: EngineSyncData {
    /// The fields, shared by copies until one of them changes.
    private var storage: Storage

    /// Copies the storage before a change when another value shares it.
    @inline(__always)
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
    }

    /// Record name of every model that has (or is about to get) a record, the reverse, and
    /// the change tag of each record as last seen from the server, in one table keyed by the
    /// name (RecordTable; read them with `recordName(of:)`, `model(forRecord:)`,
    /// `changeTag(of:)`).
    public var records: RecordTable {
        _read { yield storage.fields.records }
        _modify { makeUnique(); yield &storage.fields.records }
    }
    /// Models with changes not uploaded yet, readable in identifier order (PendingChanges).
    ///
    /// Read by a getter, not a `_read` coroutine like the other fields: the optimizer leaves
    /// that coroutine out of line for the engine's lookups of a model's change
    /// (`pending[id]`), and its frame, too large for the caller's buffer with the seven words
    /// of `PendingChanges` in it, is allocated on the heap: a malloc and a free per lookup.
    /// The getter is inlined and reads the change in place.
    public var pending: PendingChanges {
        get { storage.fields.pending }
        _modify { makeUnique(); yield &storage.fields.pending }
    }
    /// Deletions not uploaded yet, by record name.
    public var pendingDeletions: RecordNameMap<PendingDeletion> {
        _read { yield storage.fields.pendingDeletions }
        _modify { makeUnique(); yield &storage.fields.pendingDeletions }
    }
    /// LIM-4: the zone token expired and the download from scratch that follows has not
    /// reached its end; the records it brought so far. On disk, so a kill in the middle of it
    /// (DL-2 continues it after the relaunch) still tells what it left out.
    public var expiredTokenRefetch: Bool {
        get { storage.fields.expiredTokenRefetch }
        _modify { makeUnique(); yield &storage.fields.expiredTokenRefetch }
    }
    public var refetchedRecords: Set<String> {
        _read { yield storage.fields.refetchedRecords }
        _modify { makeUnique(); yield &storage.fields.refetchedRecords }
    }
    /// LIM-4: the records the last download from scratch after an expired token (or DEL-2's
    /// relaunch) did not bring, whose models stayed; a move under one of them is refused.
    public var deletionsMissed: Set<String> {
        _read { yield storage.fields.deletionsMissed }
        _modify { makeUnique(); yield &storage.fields.deletionsMissed }
    }
    /// LIM-4 after ERR-1: the records this device knew in the app's zone when it found the
    /// zone created again by another device; those the download from scratch did not bring
    /// are still without a change tag at its end.
    public var notRefetchedSinceZoneLoss: Set<String> {
        _read { yield storage.fields.notRefetchedSinceZoneLoss }
        _modify { makeUnique(); yield &storage.fields.notRefetchedSinceZoneLoss }
    }
    /// LIM-3: records whose deletion this device uploaded; a downloaded record that another
    /// device moved into one of them (without knowing of the deletion) is the race.
    public var deletedHere: Set<String> {
        _read { yield storage.fields.deletedHere }
        _modify { makeUnique(); yield &storage.fields.deletedHere }
    }
    /// LIM-3: records this device moved to another parent, with the change tag of the upload
    /// that did it, until another device's save of the record is downloaded.
    public var uploadedMoves: RecordNameMap<String> {
        _read { yield storage.fields.uploadedMoves }
        _modify { makeUnique(); yield &storage.fields.uploadedMoves }
    }
    /// SYNC-4: saves sent whose answer has not arrived (a kill or a lost answer can keep it
    /// from ever arriving), by record name; the next download of the record settles them.
    public var unanswered: RecordNameMap<UnansweredUpload> {
        _read { yield storage.fields.unanswered }
        _modify { makeUnique(); yield &storage.fields.unanswered }
    }
    public var databaseToken: DatabaseChangeToken? {
        _read { yield storage.fields.databaseToken }
        _modify { makeUnique(); yield &storage.fields.databaseToken }
    }
    public var zoneToken: ZoneChangeToken? {
        _read { yield storage.fields.zoneToken }
        _modify { makeUnique(); yield &storage.fields.zoneToken }
    }
    /// The app zone and the subscription were saved for this account.
    public var zoneCreated: Bool {
        get { storage.fields.zoneCreated }
        _modify { makeUnique(); yield &storage.fields.zoneCreated }
    }
    public var subscribed: Bool {
        get { storage.fields.subscribed }
        _modify { makeUnique(); yield &storage.fields.subscribed }
    }
    /// HDO-1: the user's data was downloaded completely at least once with this account.
    public var hasDownloadedOnce: Bool {
        get { storage.fields.hasDownloadedOnce }
        _modify { makeUnique(); yield &storage.fields.hasDownloadedOnce }
    }
    /// The account these data belong to.
    public var account: String? {
        _read { yield storage.fields.account }
        _modify { makeUnique(); yield &storage.fields.account }
    }
    /// The newest store history position already recorded.
    public var historyPosition: Int64 {
        get { storage.fields.historyPosition }
        _modify { makeUnique(); yield &storage.fields.historyPosition }
    }
    /// Monotonic counter for pending-key versions.
    public var editVersion: Int64 {
        get { storage.fields.editVersion }
        _modify { makeUnique(); yield &storage.fields.editVersion }
    }
    /// The parent record name of each record as iCloud has it (ERR-6: a deletion of a previous
    /// parent waits for the change that moved a model away from it).
    public var parents: RecordNameMap<String> {
        _read { yield storage.fields.parents }
        _modify { makeUnique(); yield &storage.fields.parents }
    }
    /// DL-3 / DL-4: downloaded records that cannot be stored yet, kept next to the sync data.
    public var aside: RecordNameMap<AsideRecord> {
        _read { yield storage.fields.aside }
        _modify { makeUnique(); yield &storage.fields.aside }
    }
    /// SCHEMA-4 / ERR-7: records CloudKit rejected, set aside until they change or the time.
    public var rejected: [String: RejectedRecord] {
        _read { yield storage.fields.rejected }
        _modify { makeUnique(); yield &storage.fields.rejected }
    }
    /// BIG-2 .. BIG-5, LIM-6: records with an overflow asset, by name (SDSEngine+Overflow).
    public var overflow: [String: OverflowRecordState] {
        _read { yield storage.fields.overflow }
        _modify { makeUnique(); yield &storage.fields.overflow }
    }
    /// DL-5: a page's records were stored but its token not yet (a kill in between).
    public var pageInProgress: Bool {
        get { storage.fields.pageInProgress }
        _modify { makeUnique(); yield &storage.fields.pageInProgress }
    }
    /// Every record is being downloaded again after data were forgotten or vanished (a
    /// reset, a lost or rebuilt store, batch-deleted models): SYNC-7 holds uploads.
    public var isRedownloading: Bool {
        get { storage.fields.isRedownloading }
        _modify { makeUnique(); yield &storage.fields.isRedownloading }
    }
    /// Sharing: the shared database's token, the other users' zones this account accepted
    /// (sorted), their tokens, and which records are local copies of those shares.
    public var sharedDatabaseToken: DatabaseChangeToken? {
        _read { yield storage.fields.sharedDatabaseToken }
        _modify { makeUnique(); yield &storage.fields.sharedDatabaseToken }
    }
    public var sharedZones: [ZoneID] {
        _read { yield storage.fields.sharedZones }
        _modify { makeUnique(); yield &storage.fields.sharedZones }
    }
    public var sharedZoneTokens: [ZoneID: ZoneChangeToken] {
        _read { yield storage.fields.sharedZoneTokens }
        _modify { makeUnique(); yield &storage.fields.sharedZoneTokens }
    }
    public var recordZones: [String: ZoneID] {
        _read { yield storage.fields.recordZones }
        _modify { makeUnique(); yield &storage.fields.recordZones }
    }
    /// Records left in a zone their model moved out of (into another user's share): the
    /// zone each is still to be deleted from once the model's record is saved in its new one.
    public var staleCopies: [String: ZoneID] {
        _read { yield storage.fields.staleCopies }
        _modify { makeUnique(); yield &storage.fields.staleCopies }
    }
    /// DR-4: records this device moved into another user's share (ID-4), whose old record
    /// another device may still write.
    public var movedIntoShares: Set<String> {
        _read { yield storage.fields.movedIntoShares }
        _modify { makeUnique(); yield &storage.fields.movedIntoShares }
    }
    public var sharedSubscribed: Bool {
        get { storage.fields.sharedSubscribed }
        _modify { makeUnique(); yield &storage.fields.sharedSubscribed }
    }
    /// EXT-2 / EXT-3: records and deletions a process skipped because it does not synchronize
    /// their model or some of their keys; a process that does downloads them again.
    public var skipped: [String: String] {
        _read { yield storage.fields.skipped }
        _modify { makeUnique(); yield &storage.fields.skipped }
    }
    public var skippedDeletions: [String: String] {
        _read { yield storage.fields.skippedDeletions }
        _modify { makeUnique(); yield &storage.fields.skippedDeletions }
    }
    /// Which rule skipped each of them: EXT-2 (an extension) or EXT-3 (an older version).
    public var skippedRules: [String: String] {
        _read { yield storage.fields.skippedRules }
        _modify { makeUnique(); yield &storage.fields.skippedRules }
    }
    /// A download started and has not reached its end yet (DL-2 continues it).
    public var downloadInProgress: Bool {
        get { storage.fields.downloadInProgress }
        _modify { makeUnique(); yield &storage.fields.downloadInProgress }
    }
    /// Every record must be downloaded again (DEL-2, LIFE-2, HDO-3): fetch without a token.
    public var needsFullDownload: Bool {
        get { storage.fields.needsFullDownload }
        _modify { makeUnique(); yield &storage.fields.needsFullDownload }
    }
    /// SYNC-7: full downloads tried since uploads were held back.
    public var fullDownloadAttempts: Int {
        get { storage.fields.fullDownloadAttempts }
        _modify { makeUnique(); yield &storage.fields.fullDownloadAttempts }
    }
    /// The store generation the data were made for (a lost or rebuilt store bumps it).
    public var storeGeneration: Int {
        get { storage.fields.storeGeneration }
        _modify { makeUnique(); yield &storage.fields.storeGeneration }
    }
    /// The next synchronization first looks for models without records (ADOPT-1), as after
    /// a reset (LIFE-2).
    public var lookForModelsWithoutRecords: Bool {
        get { storage.fields.lookForModelsWithoutRecords }
        _modify { makeUnique(); yield &storage.fields.lookForModelsWithoutRecords }
    }
    /// The rule under which a download from scratch matches local models by their values:
    /// ADOPT-4 (a device that never synchronized), LIFE-3 (after a reset), DEL-3 (a rebuilt
    /// store).
    public var valueMatchingRule: String {
        _read { yield storage.fields.valueMatchingRule }
        _modify { makeUnique(); yield &storage.fields.valueMatchingRule }
    }

    public init() {
        storage = Storage(Fields())
    }

    /// SYNC-4: a save of these key versions was sent for the record. A save sent again
    /// before an answer keeps the change tag of the first (the version both were made on).
    /// Returns the unanswered send it joins (nil for a first send), found by the same lookup.
    ///
    /// The name is hashed once (`RecordNameMap.insertOrChange`), whether the send is the
    /// first or joins an earlier one. The change tag is read before the map is changed (read
    /// during the change, it would overlap it); it is kept only for a first send.
    @discardableResult
    public mutating func markUnanswered(
        _ recordName: String, keys: [String: Int64]
    ) -> UnansweredUpload? {
        markUnanswered(recordName, keys: keys, changeTag: changeTag(of: recordName))
    }

    /// `markUnanswered(_:keys:)` with the record's change tag (`changeTag(of:)`) read by the
    /// caller, which made the save on it: not looked up twice per uploaded record.
    @discardableResult
    mutating func markUnanswered(
        _ recordName: String, keys: [String: Int64], changeTag tag: String?
    ) -> UnansweredUpload? {
        markUnanswered(HashedRecordName(recordName), keys: keys, changeTag: tag)
    }

    /// `markUnanswered(_:keys:changeTag:)` of a name the caller hashed already.
    @discardableResult
    mutating func markUnanswered(
        _ recordName: HashedRecordName, keys: [String: Int64], changeTag tag: String?
    ) -> UnansweredUpload? {
        // A first send takes the keys as they are (the map shared, not rebuilt); a later
        // send's keys join the earlier one's, which is returned as it was.
        unanswered.insertOrChange(UnansweredUpload(keys: keys, changeTag: tag), at: recordName) {
            upload in
            let earlier = upload
            upload.keys.merge(keys) { _, sent in sent }
            return earlier
        }
    }

    /// Binds a model to its record name (a name or model bound elsewhere is unbound there).
    public mutating func bind(_ model: ModelID, to recordName: String) {
        records.bind(model, to: recordName)
    }

    /// Forgets a model's record binding.
    public mutating func unbind(_ model: ModelID) {
        records.unbind(model)
    }

    /// The record name bound to the model.
    public func recordName(of model: ModelID) -> String? { records.name(of: model) }

    /// The model bound to the record name.
    ///
    /// In `RecordTable`'s two halves (`identicalModel(named:)`, then the name hashed before
    /// the table is read again): a call made while the table is read from the storage
    /// retained and released its memory.
    public func model(forRecord name: String) -> ModelID? {
        let identical = records.identicalModel(named: name)
        if identical.found { return identical.model }
        return hashedModel(forRecord: name)
    }

    /// `model(forRecord:)` of a name whose hash the caller keeps.
    ///
    /// Found by that hash at once: such names are the callers' own strings (the checkers'
    /// and the explorer's labels), almost never the very string of an entry, so a look for
    /// an identical one first was almost always wasted.
    public func model(forRecord name: HashedRecordName) -> ModelID? {
        records.model(named: name.name, hash: name.nameHash)
    }

    /// `model(forRecord:)` of a name no entry holds this very string of.
    @inline(never)
    private func hashedModel(forRecord name: String) -> ModelID? {
        let hash = RecordTable.hash(name)
        return records.model(named: name, hash: hash)
    }

    /// The change tag of the record as last seen from the server.
    public func changeTag(of name: String) -> String? { records.changeTag(of: name) }

    /// Sets (nil: forgets) the change tag of the record as last seen from the server.
    public mutating func setChangeTag(_ tag: String?, for name: String) {
        records.setChangeTag(tag, for: name)
    }

    /// Models with changes not uploaded yet (`expect DEVICE: pending N`), deletions included.
    public var pendingCount: Int { pending.count + pendingDeletions.count }

    public static func == (lhs: SDSSyncData, rhs: SDSSyncData) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }
}

/// A record CloudKit rejected, set aside for an hour or until its model changes (SCHEMA-4).
public struct RejectedRecord: Hashable, Sendable {
    public var until: SimTime
    public var error: CloudError

    public init(until: SimTime, error: CloudError) {
        self.until = until
        self.error = error
    }
}

/// A downloaded record kept aside (DL-3, DL-4) and why.
public struct AsideRecord: Hashable, Sendable {
    public var record: CloudRecord
    public var reason: String

    public init(record: CloudRecord, reason: String) {
        self.record = record
        self.reason = reason
    }
}
