/// The CloudKit environment (SCHEMA-2).
public enum CloudEnvironment: String, Hashable, Sendable, CaseIterable {
    case development
    case production
}

/// How the cloud answers a delete of a record that does not exist (`cloud missing-deletes`, a
/// SyncLab addition): CloudKit's behaviour is not documented either way.
public enum MissingDeletes: String, Hashable, Sendable, CaseIterable {
    /// The delete succeeds (the default, as before the setting existed).
    case succeed
    /// The item fails with `unknownItem`.
    case unknownItem = "unknown-item"
}

/// Whether saving a child record gives its parent a new change tag (`cloud child-saves`, a
/// SyncLab addition): Apple's `recordChangeTag` page says it can, not when.
public enum ChildSaves: String, Hashable, Sendable, CaseIterable {
    /// The parent keeps its tag (the default, as before the setting existed).
    case leaveParent = "leave-parent"
    /// Each child save the cloud applies gives its parent a new change tag.
    case touchParent = "touch-parent"
}

/// One network or service setting of the simulated cloud, in setup or on the timeline.
public enum CloudSettingKind: Hashable, Sendable {
    /// One-way latency of every request.
    case latency(DurationSpecification)
    /// Delay of silent pushes to the account's other devices.
    case pushLatency(DurationSpecification)
    /// The share of pushes that are lost.
    case pushDrop(Probability)
    /// Records per download page (setup only).
    case pageSize(Int)
    case environment(CloudEnvironment)
    /// `missing-deletes succeed|unknown-item` (SyncLab addition).
    case missingDeletes(MissingDeletes)
    /// `child-saves leave-parent|touch-parent` (SyncLab addition).
    case childSaves(ChildSaves)
}

/// A `cloud SETTING` line of the setup.
public struct CloudSetting: Hashable, Sendable {
    public var kind: CloudSettingKind
    public var location: SourceLocation

    public init(kind: CloudSettingKind, location: SourceLocation) {
        self.kind = kind
        self.location = location
    }
}

/// The cloud's settings at a point of the run, starting from the contract's defaults.
public struct CloudConfiguration: Hashable, Sendable {
    public var latency: DurationSpecification = .fixed(TimeSpan(microseconds: 100_000))
    public var pushLatency: DurationSpecification = .fixed(TimeSpan(microseconds: 1_000_000))
    public var pushDrop: Probability = .zero
    public var pageSize: Int = 100
    public var environment: CloudEnvironment = .development
    public var missingDeletes: MissingDeletes = .succeed
    public var childSaves: ChildSaves = .leaveParent

    public init() {}

    /// Applies one setting, as a later line overrides an earlier one.
    public mutating func apply(_ setting: CloudSettingKind) {
        switch setting {
        case .latency(let value): latency = value
        case .pushLatency(let value): pushLatency = value
        case .pushDrop(let value): pushDrop = value
        case .pageSize(let value): pageSize = value
        case .environment(let value): environment = value
        case .missingDeletes(let value): missingDeletes = value
        case .childSaves(let value): childSaves = value
        }
    }
}
