/// The `chaos …` statements of a file: a family of runs rather than one story.
///
/// A file with chaos declarations keeps its ordinary setup and timeline (run first); the
/// explorer then draws, from each seed, one concrete sequence of random model operations and
/// faults (the *fault phase*), lifts every fault and lets the world settle (the *heal
/// phase*), and checks invariants. The tree only records what the file says; the harness
/// gives it meaning (docs/EXPLORER.md).
public struct ChaosDeclarations: Hashable, Sendable {
    /// `chaos workload …`; required once any chaos statement is written.
    public var workload: ChaosWorkload?
    /// `chaos fault …` lines, in file order.
    public var faults: [ChaosFault] = []
    /// `chaos mix …`; nil means `ChaosMix.standard`.
    public var mix: ChaosMix?
    /// `chaos heal within D`: the settle budget of the heal phase.
    public var heal: Located<TimeSpan>?
    /// The line of every chaos statement, in file order, so a tool that writes a drawn run
    /// as a plain scenario can leave exactly those lines out.
    public var lines: [Int] = []
    /// Where the first chaos statement starts.
    public var location: SourceLocation?

    public init() {}

    /// Whether the file has any chaos statement (and so describes a family of runs).
    public var isDeclared: Bool { !lines.isEmpty }

    /// The contract's bound on `settle`, which the heal budget may not exceed.
    public static let maximumHealBudget = TimeSpan(microseconds: 3_600_000_000)

    /// The heal budget to run with: the file's, or the bound on `settle` (1 h).
    public var effectiveHealBudget: TimeSpan { heal?.value ?? Self.maximumHealBudget }

    /// The operation mix to run with.
    public var effectiveMix: ChaosMix { mix ?? .standard }
}

/// `chaos workload N operations [on E, …] [by D, …] [every DURATION]`.
public struct ChaosWorkload: Hashable, Sendable {
    /// How many random operations one run makes.
    public var operations: Located<Int>
    /// The entities operations act on; empty means every synchronized entity.
    public var entities: [Located<String>]
    /// The devices that act; empty means every device signed into an account.
    public var devices: [Located<String>]
    /// The simulated time between two operations, drawn for each one.
    public var interval: DurationSpecification
    public var location: SourceLocation

    /// The interval when the line names none: between 200 ms and 2 s.
    public static let defaultInterval = DurationSpecification.range(
        lower: TimeSpan(microseconds: 200_000), upper: TimeSpan(microseconds: 2_000_000))

    /// The most operations one run may make.
    public static let maximumOperations = 100_000

    public init(
        operations: Located<Int>,
        entities: [Located<String>] = [],
        devices: [Located<String>] = [],
        interval: DurationSpecification = ChaosWorkload.defaultInterval,
        location: SourceLocation
    ) {
        self.operations = operations
        self.entities = entities
        self.devices = devices
        self.interval = interval
        self.location = location
    }
}

/// The faults a chaos file may let strike: the contract's device and cloud faults, each
/// with the action that lifts it where it lasts.
public enum ChaosFaultKind: String, Hashable, Sendable, CaseIterable {
    /// `DEVICE: offline`, then `online` after the fault's duration.
    case offline
    /// `DEVICE: kill`, then `launch &` after the fault's duration.
    case kill
    /// `DEVICE: sync &` (Sync Now).
    case sync
    /// `DEVICE: stop`, then `start &` after the fault's duration (LIFE-1).
    case stop
    /// `DEVICE: account-unavailable`, then `account-available` (ACCT-2).
    case accountUnavailable = "account-unavailable"
    /// `cloud: throttle ACCOUNT for D`.
    case throttle
    /// `cloud: throttle ACCOUNT next-upload N records retry-after D`.
    case throttleUpload = "throttle-upload"
    /// `cloud: outage for D`.
    case outage
    /// `cloud: expire-tokens ACCOUNT`.
    case expireTokens = "expire-tokens"
    /// `cloud: delete-zone ACCOUNT` (ERR-1).
    case deleteZone = "delete-zone"
    /// `cloud: user-delete-zone ACCOUNT`: the user purges the zone in Settings.
    case userDeleteZone = "user-delete-zone"
    /// `cloud: quota ACCOUNT full`, then `quota ACCOUNT ok`.
    case quota
    /// `cloud: push drop 100%`, then the setup's push drop again.
    case pushDrop = "push-drop"
    /// `cloud: latency 1s..5s`, then the setup's latency again.
    case latency
    /// `cloud: reject LABEL with serverRejectedRequest`, then `accept LABEL`.
    case reject
    /// The step's operation becomes an insert that waits for a point of its device's next
    /// synchronization (`when DEVICE reaches PROBE: DEVICE: insert …`): the app saving in
    /// the middle of a download, the race LIM-2 describes. A named fault point.
    case race
    /// `DEVICE: sign-out`, then `sign-in ACCOUNT` into the account it left (ACCT-1).
    case signOut = "sign-out"
    /// `DEVICE: sign-in OTHER`, another account of the file, then `sign-in ACCOUNT` back
    /// into the one it left (ACCT-3).
    case switchAccount = "switch-account"

    /// Whether the fault strikes one device (else the cloud or an account).
    public var isDeviceFault: Bool {
        switch self {
        case .offline, .kill, .sync, .stop, .accountUnavailable, .race, .signOut,
            .switchAccount:
            return true
        default: return false
        }
    }

    /// How long the fault lasts when its line has no `for` clause; nil for faults that are
    /// over at once (`sync`, `expire-tokens`, `delete-zone`, `throttle-upload`).
    public var defaultDuration: DurationSpecification? {
        func range(_ lower: Int64, _ upper: Int64) -> DurationSpecification {
            .range(lower: TimeSpan(microseconds: lower * 1_000_000),
                upper: TimeSpan(microseconds: upper * 1_000_000))
        }
        switch self {
        case .offline: return range(1, 60)
        case .kill: return range(0, 10)
        case .stop, .accountUnavailable: return range(1, 30)
        case .throttle: return range(1, 30)
        case .outage: return range(1, 60)
        case .quota: return range(10, 120)
        case .pushDrop, .latency: return range(5, 60)
        case .reject: return range(5, 60)
        case .signOut: return range(1, 60)
        case .switchAccount: return range(5, 120)
        case .sync, .expireTokens, .deleteZone, .userDeleteZone, .throttleUpload, .race:
            return nil
        }
    }

    /// Whether a `for` clause means something for this fault.
    public var lasts: Bool { defaultDuration != nil }
}

/// `chaos fault KIND P% [for DURATION]`: at each workload step, the fault strikes with
/// probability P (drawn independently for every fault line, in file order).
public struct ChaosFault: Hashable, Sendable {
    public var kind: Located<ChaosFaultKind>
    public var probability: Probability
    /// The `for` clause, if written.
    public var duration: Located<DurationSpecification>?
    public var location: SourceLocation

    public init(
        kind: Located<ChaosFaultKind>,
        probability: Probability,
        duration: Located<DurationSpecification>? = nil,
        location: SourceLocation
    ) {
        self.kind = kind
        self.probability = probability
        self.duration = duration
        self.location = location
    }

    /// How long the fault lasts once it strikes; nil when it is over at once.
    public var effectiveDuration: DurationSpecification? {
        duration?.value ?? kind.value.defaultDuration
    }
}

/// The kinds of random model operation a workload makes.
public enum ChaosOperationKind: String, Hashable, Sendable, CaseIterable {
    /// `insert ENTITY LABEL` with random values.
    case insert
    /// `update LABEL` of one or two random attributes.
    case update
    /// `delete LABEL`.
    case delete
    /// `update LABEL rel=OTHER` (or `rel=nil`) on a to-one relationship.
    case link
    /// `update LABEL key=text(300KB)` or `bytes(300KB)`: a value that needs an asset (BIG).
    case large
    /// `batch-delete ENTITY [where k=v]`: a delete in the store directly (DEL-2).
    case batchDelete = "batch-delete"
    /// `share LABEL with ACCOUNT …` of a `sharable` model, and its `accept share` by a
    /// device signed into that account when one runs.
    case share
    /// `unshare LABEL`, `remove ACCOUNT from LABEL` or `leave share LABEL` of a shared root.
    case unshare

    /// The kinds that are sharing steps, which only some engines carry out.
    public var isSharing: Bool { self == .share || self == .unshare }
}

/// One share of the operation mix.
public struct ChaosShare: Hashable, Sendable {
    public var kind: ChaosOperationKind
    public var share: Probability
    /// Where its kind is written (nil for the default mix).
    public var location: SourceLocation?

    public init(
        _ kind: ChaosOperationKind, _ share: Probability, location: SourceLocation? = nil
    ) {
        self.kind = kind
        self.share = share
        self.location = location
    }
}

/// `chaos mix insert 30% update 50% …`: how operations are drawn; the shares add up to 100%.
public struct ChaosMix: Hashable, Sendable {
    public var shares: [ChaosShare]
    public var location: SourceLocation?

    public init(shares: [ChaosShare], location: SourceLocation? = nil) {
        self.shares = shares
        self.location = location
    }

    /// insert 30%, update 45%, delete 15%, link 10%, large 0%.
    public static let standard = ChaosMix(shares: [
        ChaosShare(.insert, Probability(partsPerMillion: 300_000)),
        ChaosShare(.update, Probability(partsPerMillion: 450_000)),
        ChaosShare(.delete, Probability(partsPerMillion: 150_000)),
        ChaosShare(.link, Probability(partsPerMillion: 100_000)),
    ])

    /// The share of one kind (0 when the mix does not name it).
    public func share(of kind: ChaosOperationKind) -> Probability {
        shares.first { $0.kind == kind }?.share ?? .zero
    }
}
