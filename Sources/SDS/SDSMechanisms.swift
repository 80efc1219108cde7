import SyncContract
/// Switches for the mechanisms behind the known races, all on in a real run.
///
/// Tests turn one off to show that a limitation scenario depends on it; the explorer's canary uses
/// `forgetsPendingChangesOnLaunch` as a deliberately broken engine. Nothing in the scenario format
/// or the CLI can select them.
public struct SDSMechanisms: Hashable, Sendable {
    /// LIM-2: a page is matched against the store before it is stored, so the app can save in
    /// between. Off: matching and storing happen in one step.
    public var matchesPageBeforeStoring = true
    /// LIM-3: a model a downloaded deletion cascades to, with changes not uploaded, is deleted
    /// everywhere. Off: it is deleted only locally.
    public var uploadsDeletionsOfCascadedChangedModels = true
    /// LIM-3 / DL-3: a record referencing one not here is kept aside. Off: stored without it.
    public var keepsRecordsWithMissingReferencesAside = true
    /// LIM-5 / ERR-6 / ERR-7: a previous parent's deletion waits for the move. Off: it goes.
    public var deletionsWaitForMoves = true
    /// A canary: pending changes are lost at every launch, as if kept in memory.
    public var forgetsPendingChangesOnLaunch = false
    /// A canary: a synchronization still wanted when one ends starts at once, even when that one
    /// scheduled a retry (ERR-3). On, a failing cloud with no latency makes the device loop at one
    /// instant; the world's liveness guard must stop it.
    public var ignoresRetryWhenSyncWanted = false

    public init() {}

    /// The switches by name, as `EngineSetup.mechanisms` carries them.
    public static let names = [
        "matchesPageBeforeStoring", "uploadsDeletionsOfCascadedChangedModels",
        "keepsRecordsWithMissingReferencesAside", "deletionsWaitForMoves",
        "forgetsPendingChangesOnLaunch", "ignoresRetryWhenSyncWanted",
    ]

    /// The defaults with the named switches set (names the profile does not list are refused
    /// before an engine is made).
    public init(switches: [String: Bool]) {
        for (name, value) in switches.sorted(by: { $0.key < $1.key }) {
            switch name {
            case "matchesPageBeforeStoring": matchesPageBeforeStoring = value
            case "uploadsDeletionsOfCascadedChangedModels":
                uploadsDeletionsOfCascadedChangedModels = value
            case "keepsRecordsWithMissingReferencesAside":
                keepsRecordsWithMissingReferencesAside = value
            case "deletionsWaitForMoves": deletionsWaitForMoves = value
            case "forgetsPendingChangesOnLaunch": forgetsPendingChangesOnLaunch = value
            case "ignoresRetryWhenSyncWanted": ignoresRetryWhenSyncWanted = value
            default: preconditionFailure("sds has no mechanism '\(name)'")
            }
        }
    }
}
