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
    /// `quota alice full` (true) / `quota alice ok` (false).
    case quota(account: Located<String>, full: Bool)
    /// `delete-zone alice` (ERR-1).
    case deleteZone(account: Located<String>)
    /// `user-delete-zone alice` (ERR-2).
    case userDeleteZone(account: Located<String>)
    /// `expire-tokens alice`.
    case expireTokens(account: Located<String>)
    /// `fail-downloads alice for 30s`: the account's change feeds fail (SYNC-6); a SyncLab
    /// addition.
    case failDownloads(account: Located<String>, duration: Located<TimeSpan>)
    /// `outage for 1m`.
    case outage(duration: Located<TimeSpan>)
    /// `reject n1 with serverRejectedRequest`: saves of the record fail until `accept n1`.
    case reject(label: Located<String>, error: Located<CloudKitErrorCode>)
    /// `accept n1`.
    case accept(label: Located<String>)
    /// `deploy-schema` (SCHEMA-2).
    case deploySchema
    /// `environment ...`, `latency ...`, `push latency ...`, `push drop ...` from now on.
    case setting(CloudSettingKind)
}
