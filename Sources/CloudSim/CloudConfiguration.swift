/// The schema environment a container talks to (docs/CLOUDSIM.md *Schema*, SCHEMA-2).
public enum CloudEnvironment: String, Hashable, Sendable {
    case development
    case production
}

/// How a delete of a record that does not exist is answered (docs/CLOUDSIM.md, *Deleting a
/// record that does not exist*). Apple documents neither answer.
public enum MissingDeleteAnswer: String, Hashable, Sendable {
    /// The item succeeds (`.deleted`): no tombstone, no note. The default.
    case succeed
    /// The item fails with a per-item `unknownItem` (and, in an atomic request, fails the
    /// request's other items with `batchRequestFailed`).
    case unknownItem
}

/// The setup of a simulated container.
public struct CloudConfiguration: Hashable, Sendable {
    /// Every account of the scenario.
    public var accounts: [String]
    /// The zone the app keeps its records in.
    public var appZoneName: String
    public var environment: CloudEnvironment
    /// Items per modify request before `limitExceeded` ([CKError] `limitExceeded`, 400).
    public var maxItemsPerRequest: Int
    /// Record size limit excluding assets.
    public var maxRecordSizeBytes: Int
    /// A `modifyRecords` request's size limit, assets excluded (the sum of the saved records'
    /// sizes as sent): above it the request fails `limitExceeded` (Apple, CKError
    /// `limitExceeded`: the request is too large; 2 MB).
    public var maxRequestSizeBytes = 2_097_152
    /// Zone entries (changed or deleted) per page of `fetchDatabaseChanges`; more → the page
    /// says `moreComing` and its token resumes after its last entry.
    public var databaseChangesPageSize = 100
    /// Saving a record that carries a change tag but was deleted creates it again under
    /// `changedKeys`/`allKeys` (what makes LIM-1 happen). Only tests switch it off, to show
    /// that the LIM-1 scenario depends on it.
    public var recreatesDeletedRecords = true
    /// A fetch without a token returns no tombstones (docs/CLOUDSIM.md *fetchZoneChanges*,
    /// FORUM-813286; what makes LIM-4 happen). Only tests switch it off.
    public var tokenlessFetchOmitsDeletions = true
    /// Saving a child also gives its parent a new change tag. Apple's `recordChangeTag` page
    /// says saving a child *can* change the parent's tag ([CKRecord] `recordChangeTag`); off
    /// by default, since Apple does not say when (docs/CLOUDSIM.md row 43). On: every applied
    /// save of a record whose `parent` is a live record of the zone not saved in the same
    /// request rewrites that parent with a new change tag (note `record.parent-touched`).
    public var childSaveChangesParentTag = false
    /// A delete of a record that does not exist (never saved, or deleted already): succeeds
    /// by default; `unknownItem` makes it fail, as some accounts of CloudKit say it does
    /// (`cloud missing-deletes unknown-item`).
    public var missingDeletes: MissingDeleteAnswer = .succeed

    public init(
        accounts: [String],
        appZoneName: String = "SwiftDataSync",
        environment: CloudEnvironment = .development,
        maxItemsPerRequest: Int = 400,
        maxRecordSizeBytes: Int = 1_048_576
    ) {
        self.accounts = accounts
        self.appZoneName = appZoneName
        self.environment = environment
        self.maxItemsPerRequest = maxItemsPerRequest
        self.maxRecordSizeBytes = maxRecordSizeBytes
    }
}
