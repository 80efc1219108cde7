/// `cloud: ACTION`, on the timeline or in a trigger.
public struct CloudActionStatement: Hashable, Sendable {
    public var action: CloudAction
    /// Where the `cloud` keyword is.
    public var location: SourceLocation

    public init(_ action: CloudAction, location: SourceLocation) {
        self.action = action
        self.location = location
    }
}

/// What the simulated cloud does; see the contract's table of cloud actions.
public enum CloudAction: Hashable, Sendable {
    /// `throttle alice for 30s`: every request of the account is rate limited for that long.
    case throttle(account: Located<String>, duration: Located<TimeSpan>)
    /// `throttle alice next-upload 2 records retry-after 10s`: a partial failure.
    case throttleNextUpload(
        account: Located<String>, records: Located<Int>, retryAfter: Located<TimeSpan>)
    /// `throttle alice next-upload 2 deletes retry-after 10s` (a SyncLab addition): the first
    /// 2 deletes of the next upload with deletes fail `requestRateLimited` with that
    /// retry-after, on the item.
    case throttleNextDeletes(
        account: Located<String>, deletes: Located<Int>, retryAfter: Located<TimeSpan>)
    /// `quota alice full` (true) / `quota alice ok` (false).
    case quota(account: Located<String>, full: Bool)
    /// `delete-zone alice` (ERR-1).
    case deleteZone(account: Located<String>)
    /// `user-delete-zone alice` (ERR-2).
    case userDeleteZone(account: Located<String>)
    /// A zone fault on one named zone or the encrypted-data reset (SyncLab additions):
    /// `delete-zone alice collection f1`, `user-delete-zone alice zone Notes`,
    /// `reset-encrypted-data alice` (every zone, `zone` nil) or `reset-encrypted-data alice
    /// zone Notes`. The plain `delete-zone alice` / `user-delete-zone alice` stay
    /// `deleteZone` / `userDeleteZone`.
    case zoneFault(ZoneFault, account: Located<String>, zone: Located<ZoneSelector>?)
    /// `expire-tokens alice`.
    case expireTokens(account: Located<String>)
    /// `fail-downloads alice for 30s`: the account's change feeds fail (SYNC-6); a SyncLab
    /// addition.
    case failDownloads(account: Located<String>, duration: Located<TimeSpan>)
    /// `zone-busy alice for 10s` (a SyncLab addition): zone fetches of the account's zones fail
    /// `zoneBusy` with the rest of the window as retry-after.
    case zoneBusy(account: Located<String>, duration: Located<TimeSpan>)
    /// `outage for 1m`.
    case outage(duration: Located<TimeSpan>)
    /// `reject n1 with serverRejectedRequest`: saves of the record fail until `accept n1`.
    case reject(label: Located<String>, error: Located<CloudKitErrorCode>)
    /// `accept n1`.
    case accept(label: Located<String>)
    /// `deploy-schema` (SCHEMA-2).
    case deploySchema
    /// `put-record alice Gadget "g1" color="red"` (a SyncLab addition): the server holds a
    /// record no device of the story saved, stored as written (any type, any field values).
    case putRecord(
        account: Located<String>, recordType: Located<String>, name: Located<String>,
        fields: [Assignment])
    /// `serve-old-version alice n1` (a SyncLab addition): the next fetch of the zone holding
    /// n1's record ends its page with that record's version before its last save.
    case serveOldVersion(account: Located<String>, label: Located<String>)
    /// `fail-next-batch alice [with serverRejectedRequest]` (a SyncLab addition): the
    /// account's next upload fails as a whole, every item `batchRequestFailed` but the first,
    /// which fails with the code when one is given.
    case failNextBatch(account: Located<String>, firstItem: Located<CloudKitErrorCode>?)
    /// `environment ...`, `latency ...`, `push latency ...`, `push drop ...`,
    /// `missing-deletes ...`, `child-saves ...` from now on.
    case setting(CloudSettingKind)
}

/// What a zone fault does to a zone (docs/FORMAT.md, *cloud actions*).
public enum ZoneFault: String, Hashable, Sendable, CaseIterable {
    /// Deleted as by another device (ERR-1).
    case deleteZone = "delete-zone"
    /// Purged by the user in settings (ERR-2).
    case userDeleteZone = "user-delete-zone"
    /// Deleted by CloudKit after the user reset their encrypted data (a SyncLab addition).
    case resetEncryptedData = "reset-encrypted-data"
}

/// The one zone a zone fault names (a SyncLab addition).
public enum ZoneSelector: Hashable, Sendable {
    /// `collection LABEL`: the zone of the account's private database holding LABEL's record.
    case collection(label: String)
    /// `zone NAME`: the zone of that name in the account's private database.
    case zone(name: String)
}
