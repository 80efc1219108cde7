/// `expect ...`: checked at its place in the timeline; a failure does not stop the run.
public struct Expectation: Hashable, Sendable {
    public var kind: ExpectationKind
    /// Where the `expect` keyword is.
    public var location: SourceLocation
    /// `expect [ENGINE] …` (a SyncLab addition): the one engine whose runs check
    /// it; nil means every engine the story runs on.
    public var engine: Located<String>?

    public init(_ kind: ExpectationKind, location: SourceLocation) {
        self.init(kind, location: location, engine: nil)
    }

    public init(_ kind: ExpectationKind, location: SourceLocation, engine: Located<String>?) {
        self.kind = kind
        self.location = location
        self.engine = engine
    }

    /// Whether a run on `engine` checks this expectation.
    public func applies(to engine: String) -> Bool {
        self.engine.map { $0.value == engine } ?? true
    }
}

/// Whose data an expectation looks at: a device's store or an account's zone in the cloud.
public enum ExpectationScope: Hashable, Sendable {
    /// `expect phone: ...`: the device's local models.
    case device(Located<String>)
    /// `expect cloud alice: ...`: the records of the account's zone.
    case cloud(account: Located<String>)
}

/// What an expectation claims.
public enum ExpectationKind: Hashable, Sendable {
    /// `expect phone: n1 title="B"` / `expect cloud alice: n1 title="B"`: exists with values.
    case values(ExpectationScope, label: Located<String>, values: [Assignment])
    /// `expect phone: no n1` / `expect cloud alice: no n1`.
    case absent(ExpectationScope, label: Located<String>)
    /// `expect phone: count Note [where k=v] = 2`, or a bound: `>= 2`, `<= 2`, `> 2`, `< 2`.
    case count(
        ExpectationScope, entity: Located<String>, filter: [Assignment],
        comparison: CountComparison, count: Located<Int>)
    /// `expect cloud alice: n1 named "Subscription.<hex>"`.
    case recordName(account: Located<String>, label: Located<String>, name: Located<String>)
    /// `expect phone: state idle` / `state error(userDeletedZone)`.
    case state(device: Located<String>, state: Located<String>, argument: Located<String>?)
    /// `expect phone: downloaded-once` (true) / `not downloaded-once` (false).
    case downloadedOnce(device: Located<String>, expected: Bool)
    /// `expect phone: refused permissionFailure`: a request of the device was refused with
    /// that CloudKit error since the run started (a SyncLab addition, for access control).
    case refused(device: Located<String>, error: Located<CloudKitErrorCode>)
    /// `expect phone: pending 0`.
    case pending(device: Located<String>, count: Located<Int>)
    /// `expect [phone:] [not] fired SYNC-4`; no device means anywhere.
    case fired(device: Located<String>?, rule: Located<String>, expected: Bool)
    /// `expect converged` (true) / `expect not converged` (false).
    case converged(expected: Bool)
    /// `expect cloud alice: n1 in zone "Notes"` (a SyncLab addition): the zone of the
    /// account's private database that holds the label's record.
    case recordZone(account: Located<String>, label: Located<String>, zone: Located<String>)
    /// `expect cloud alice: n1 raw CD_title="B"` (a SyncLab addition): the record's fields as
    /// stored, by field name, without the engine's record layout.
    case rawValues(account: Located<String>, label: Located<String>, values: [Assignment])
    /// `expect failure "TEXT"` (a SyncLab addition): the run failed at runtime, or an action
    /// failed, with TEXT in its message since the previous `expect failure`; the run goes on.
    case failure(text: Located<String>)
    /// `expect phone: load-error "TEXT"` (a SyncLab addition): the device's store failed to
    /// load, with TEXT in one section of the failure's reason.
    case loadError(device: Located<String>, text: Located<String>)
    /// `expect cloud alice: query Note where title="B" = 1` (a SyncLab addition): how many
    /// records of the type, as stored, the server's query over every zone of the account's
    /// private database returns (`CKQueryOperation`, followed to its last page).
    case query(
        account: Located<String>, recordType: Located<String>, conditions: [QueryCondition],
        comparison: CountComparison, count: Located<Int>)
    /// `expect warning "TEXT"` (a SyncLab addition): a warning `synclab check` gives the file
    /// for the run's engine has TEXT in its message.
    case warning(text: Located<String>)
}
