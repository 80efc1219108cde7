/// The schema environment a container talks to (CLOUDKIT.md section 14, SCHEMA-2).
public enum CloudEnvironment: String, Hashable, Sendable {
    case development
    case production
}

/// The setup of a simulated container.
public struct CloudConfiguration: Hashable, Sendable {
    /// Every account of the scenario.
    public var accounts: [String]
    /// The zone the app keeps its records in.
    public var appZoneName: String
    public var environment: CloudEnvironment
    /// Items per modify request before `limitExceeded` (CLOUDKIT.md section 8).
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
    /// A fetch without a token returns no tombstones (CLOUDKIT.md 9.4, what makes LIM-4
    /// happen). Only tests switch it off.
    public var tokenlessFetchOmitsDeletions = true

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
