import Kernel
import Scenario
import SyncContract

extension EngineRegistry {
    /// The validator's options for scenarios run with these engines: every engine's names
    /// as plain data (each engine's facts looked up when a scenario names it), `engine`
    /// (`--engine NAME`) as the override of a file's own line, and the time budget the
    /// command line sets (`--max-time`), if any.
    public func validationOptions(
        engine: String? = nil, maxTime: SimTime? = nil
    ) -> ValidationOptions {
        var options = ValidationOptions(
            probePoints: ProbePoint.contractOrder, ruleIDs: nil, engines: names,
            maxTime: maxTime.map { TimeSpan(microseconds: $0.microseconds) })
        // Asked per engine a scenario names: the others' profiles are never built.
        options.engineFactsLookup = EngineFactsLookup(key: names) { [self] name in
            profile(named: name).map { profile in
                EngineFacts(
                    probePoints: profile.probePointNames,
                    ruleIDs: profile.catalogue.rules.map(\.id),
                    stateNames: profile.stateNames,
                    statements: profile.statements,
                    cataloguePage: profile.cataloguePage)
            }
        }
        options.engineStatements = EngineProfile.engineStatements
        options.engineOverride = engine
        return options
    }
}

extension RunOptions {
    /// The validator's options that match these run options' engines and override.
    public var validationOptions: ValidationOptions {
        engines.validationOptions(engine: engine, maxTime: maxTime)
    }
}

extension ExploreOptions {
    /// The validator's options that match these explore options' engines and override.
    public var validationOptions: ValidationOptions {
        engines.validationOptions(engine: engine, maxTime: maxTime)
    }
}
