import CloudSim
import Kernel
import LocalStore

/// Everything the simulator knows about one engine: what it models, its catalogue, probe
/// points, states, the statements it supports, how it lays records out, and how to start
/// and observe it. The registry holds one per engine.
public struct EngineProfile: Sendable {
    /// The name scenarios write (`engine sds`).
    public let name: String
    /// The seed document it models (`000`).
    public let seed: String
    /// The system it models, in one line.
    public let system: String
    /// The page of its catalogue, relative to the repository (`docs/RULES.md`).
    public let cataloguePage: String
    public let catalogue: RuleCatalogue
    /// Every probe point it passes, the contract's in contract order first, then its own.
    public let probePoints: [ProbePoint]
    /// The state names `expect … state` may name (common names included).
    public let stateNames: [String]
    /// The engine-dependent statements it supports (see `EngineProfile.engineStatements`).
    public let statements: [String]
    /// Names of its test-only mechanism switches (`RunOptions.mechanisms`).
    public let mechanisms: [String]
    /// The switch that breaks the engine on purpose, for the explorer's canary test (a clean
    /// sweep means something only if the explorer catches it); nil when it has none.
    public let canaryMechanism: String?
    public let codec: any RecordCodec
    /// The store author of the engine's own saves (its downloads), so it never records them.
    public let author: String
    /// Decision tables kept as data besides the catalogue, printed by `synclab rules`
    /// (empty for an engine without one).
    public var policyTables: [PolicyTable] = []
    /// Whether a batch delete reaches the running engine as a change of the store
    /// (`.storeSaved`), as Core Data's remote-change notification does for what persistent
    /// history records (mirror: MIR-27, ENGINES §7.4). False by default: sds's save
    /// notifications leave batch deletes out (DEL-2), and history's next push reads them
    /// (HIS-40).
    public var observesBatchDeletes = false
    /// Whether models a batch delete removed come back only at the app's next launch (sds:
    /// DEL-2 downloads every record again there): the explorer's heal then launches again
    /// each device that batch-deleted since its last launch, so the checks judge the state
    /// the rule promises, not the moment before the launch it waits for.
    public var batchDeletesReturnAtLaunch = false
    /// Whether `sync` cannot make the engine download, and only a launch, a push or the
    /// network's return brings an import (mirror: MIR-11, MIR-9): the explorer's heal then
    /// launches each device again after its syncs, the moment a user's reopened app imports.
    public var healRelaunchesToDownload = false
    /// For an engine of this package that lends the disk (`DiskLendingEngine`): its engine as
    /// one, for the device at each launch. Given by the engine's own profile, so that no cast
    /// to the protocol looks its conformance up at run time (nil: the engine lends nothing).
    package var lendingEngine: (@Sendable (any SyncEngine) -> (any DiskLendingEngine)?)?
    /// Validates the schema as the store loads (nil: the engine's stores always load). A
    /// failure is a runtime state of the device, not an input error: `synclab check` warns at
    /// the items it names, and a device that launches with it cannot save (see
    /// `StoreLoadFailure`).
    public let validateSchema: (@Sendable (Schema) -> StoreLoadFailure?)?
    /// The engine's rules a neutral cloud note shows (e.g. `record.recreated` → LIM-1 for
    /// `sds`); the cloud names no engine's rule itself (docs/CLOUDSIM.md, *Notes*).
    private let cloudNoteRules: @Sendable (CloudNote) -> [String]
    private let makeEngine: @Sendable (EngineSetup) -> any SyncEngine
    private let makeObservation: @Sendable (SyncDataBox, (any SyncEngine)?) -> any EngineObservation
    private let makeStoppedObservation:
        (@Sendable (SyncDataBox, Store, Schema) -> any EngineObservation)?

    public init(
        name: String,
        seed: String,
        system: String,
        cataloguePage: String,
        catalogue: RuleCatalogue,
        probePoints: [ProbePoint],
        stateNames: [String],
        statements: [String],
        mechanisms: [String] = [],
        canaryMechanism: String? = nil,
        codec: any RecordCodec,
        author: String,
        cloudNoteRules: @escaping @Sendable (CloudNote) -> [String] = { _ in [] },
        makeEngine: @escaping @Sendable (EngineSetup) -> any SyncEngine,
        observe: @escaping @Sendable (SyncDataBox, (any SyncEngine)?) -> any EngineObservation,
        observeStopped: (@Sendable (SyncDataBox, Store, Schema) -> any EngineObservation)? = nil,
        validateSchema: (@Sendable (Schema) -> StoreLoadFailure?)? = nil
    ) {
        let names = probePoints.map(\.name)
        precondition(
            Array(names.filter(ProbePoint.contractOrder.contains)) == ProbePoint.contractOrder,
            "engine \(name) must pass the contract's probe points in contract order")
        for statement in statements {
            precondition(Self.engineStatements.contains(statement),
                         "engine \(name): '\(statement)' is not an engine-dependent statement")
        }
        self.name = name
        self.seed = seed
        self.system = system
        self.cataloguePage = cataloguePage
        self.catalogue = catalogue
        self.probePoints = probePoints
        self.stateNames = stateNames
        self.statements = statements
        self.mechanisms = mechanisms
        precondition(canaryMechanism.map(mechanisms.contains) ?? true,
                     "engine \(name): its canary "
                         + "'\(canaryMechanism ?? "")' is not one of its mechanisms")
        self.canaryMechanism = canaryMechanism
        self.codec = codec
        self.author = author
        self.cloudNoteRules = cloudNoteRules
        self.makeEngine = makeEngine
        self.makeObservation = observe
        self.makeStoppedObservation = observeStopped
        self.validateSchema = validateSchema
    }

    /// The statements of the scenario format that only some engines can carry out: the app
    /// calls and the sharing steps. Every other statement works on every engine.
    public static let engineStatements = [
        "sync", "stop", "start", "reset-sync-data", "initialize-schema",
        "share", "accept", "unshare", "remove", "leave",
    ]

    /// The rules a cloud note shows for this engine: the cloud's own (none today) and the
    /// ones the profile names for it.
    public func rules(for note: CloudNote) -> [String] {
        let named = cloudNoteRules(note)
        // Most notes name no rule: no array built for them.
        if named.isEmpty || note.rules.isEmpty { return named.isEmpty ? note.rules : named }
        return note.rules + named.filter { !note.rules.contains($0) }
    }

    /// The probe point names, in order.
    public var probePointNames: [String] { probePoints.map(\.name) }

    /// A new engine (fresh memory) for a launch.
    public func engine(_ setup: EngineSetup) -> any SyncEngine {
        for key in setup.mechanisms.keys.sorted() {
            precondition(mechanisms.contains(key), "engine \(name) has no mechanism '\(key)'")
        }
        return makeEngine(setup)
    }

    /// What checkers may read of a device's engine: its disk, and its memory if it runs.
    public func observe(
        _ syncData: SyncDataBox, running engine: (any SyncEngine)?
    ) -> any EngineObservation {
        makeObservation(syncData, engine)
    }

    /// What checkers may read of a device whose app is not running (killed, or not launched
    /// yet): its disk alone, the sync data and the store, with the schema the engine would
    /// launch with, for an engine whose pending changes live in the store (history's
    /// persistent history). Without `observeStopped`, `observe` with no engine.
    public func observe(_ syncData: SyncDataBox, stoppedWith store: Store,
        schema: Schema) -> any EngineObservation {
        makeStoppedObservation?(syncData, store, schema) ?? makeObservation(syncData, nil)
    }
}
