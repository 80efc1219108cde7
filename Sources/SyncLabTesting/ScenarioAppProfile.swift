import CloudKit
import CloudSim
import LocalStore
import SyncContract

extension EngineProfile {
    /// The profile of an app that owns its sync engine (written on Apple's CloudKit) and
    /// that scenario files and the explorer drive through `ScenarioApp`: register it in a
    /// `ScenarioLab` and name it in a scenario's `engine` line.
    ///
    /// - Parameters:
    ///   - zoneNames: the zones its records live in (the first is the one `cloud:` faults
    ///     name by default).
    ///   - catalogue: the rule IDs its code traces (`expect … fired ID`), if any; the
    ///     weaknesses SyncLab recognises in any app's CKSyncEngine code (docs/APP-RULES.md)
    ///     follow its groups.
    public static func scenarioApp<App: ScenarioApp>(
        _ app: App.Type,
        name: String,
        system: String = "an app's own sync engine on Apple's CloudKit API",
        zoneNames: [String],
        catalogue: RuleCatalogue = RuleCatalogue(groupTitles: [("APP", "the app's own rules")],
            rules: [])
    ) -> EngineProfile {
        let containers = AppContainers()
        let author = name
        return EngineProfile(
            name: name,
            seed: "user",
            system: system,
            cataloguePage: "docs/APP-RULES.md",
            catalogue: AppRules.catalogue(adding: catalogue),
            probePoints: EngineProfile.appProbePoints,
            stateNames: EngineState.commonNames,
            statements: ["sync"],
            codec: AppRecordCodec(zoneNames: zoneNames),
            author: author,
            cloudNoteRules: AppRules.cloudNoteRules,
            makeEngine: { _ in ScenarioAppEngine<App>(containers: containers, author: author) },
            observe: { box, _ in
                ScenarioAppObservation(data: box.contents(as: ScenarioAppData.self)
                    ?? ScenarioAppData())
            })
    }
}

/// The names a scenario's device keeps: each model's record name.
struct ScenarioAppObservation: EngineObservation {
    let data: ScenarioAppData

    func recordName(of model: ModelID) -> String? { data.names[model] }

    /// The newest model of that name: a name the app deleted and brings back (its notes
    /// wiped at a zone's deletion, then downloaded again) also names the deleted model.
    func model(forRecord name: String) -> ModelID? {
        var found: ModelID?
        for (id, named) in data.names where named == name { // tidy: ordered (a SortedMap)
            found = id
        }
        return found
    }

    var pendingCount: Int { 0 }

    var hasDownloadedOnce: Bool { true }
}
