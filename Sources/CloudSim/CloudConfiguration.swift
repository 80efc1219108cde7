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
