/// The checks that depend on the scenario's engine, from the facts its callers pass.
extension Validator {
    /// The engine a check is about: the one `forEachCheckedEngine` is at, else the
    /// expectation's own (`expect [naive] …`), else the override, else the file's engine.
    var engineName: String {
        currentEngine ?? scopedEngine ?? options.engineOverride ?? scenario.header.effectiveEngine
    }

    /// The engines a statement is checked against: an expectation's own engine; else every
    /// engine of the `engines` line, when the run is on one of them (or on none in
    /// particular); else the run's engine.
    var checkedEngines: [String] {
        if let scopedEngine { return [scopedEngine] }
        let story = scenario.header.engines.map(\.value)
        if !story.isEmpty, options.engineOverride.map(story.contains) ?? true { return story }
        return [engineName]
    }

    /// Runs a check once per engine of `checkedEngines`, `engineName` naming each in turn.
    mutating func forEachCheckedEngine(_ body: (inout Validator) -> Void) {
        let saved = currentEngine
        for engine in checkedEngines {
            currentEngine = engine
            body(&self)
        }
        currentEngine = saved
    }

    /// The `engines` line: known engines, each once, and the `engine` line among them.
    mutating func checkStoryEngines() {
        let story = scenario.header.engines
        reportDuplicates(story, kind: "engine")
        if let known = options.engines {
            for engine in story where !known.contains(engine.value) {
                let suggestions = Suggestions.closest(to: engine.value, among: known)
                report(.unknownName("engine", engine.value, suggestions: suggestions,
                    choices: DiagnosticMessage.engineChoices(known)), at: engine.location)
            }
        }
        if let engine = scenario.header.engine, !story.isEmpty,
            !story.contains(where: { $0.value == engine.value })
        {
            report(.engineNotListed(engine.value, listed: story.map(\.value)),
                at: engine.location)
        }
    }

    /// `expect [ENGINE] …`: the engine must be one of the `engines` line. Returns the
    /// engine to check the expectation against, nil when it is not a usable one.
    mutating func checkExpectationEngine(_ engine: Located<String>) -> String? {
        let story = scenario.header.engines.map(\.value)
        guard story.contains(engine.value) else {
            let suggestions = Suggestions.closest(to: engine.value, among: story)
            report(.engineNotListed(engine.value, listed: story, suggestions: suggestions),
                at: engine.location)
            return nil
        }
        if let known = options.engines, !known.contains(engine.value) { return nil }
        return engine.value
    }

    /// What the caller told about that engine; nil when it told nothing.
    var engineFacts: EngineFacts? {
        namedEngineFacts[engineName]
    }

    /// An engine-dependent statement the scenario's engine does not support is an error
    /// naming the engine.
    mutating func checkEngineSupports(_ statement: DeviceActionStatement) {
        forEachCheckedEngine { $0.checkEngineSupportsOne(statement) }
    }

    private mutating func checkEngineSupportsOne(_ statement: DeviceActionStatement) {
        guard let facts = engineFacts else { return }
        let keyword = statement.action.keyword
        guard options.engineStatements.contains(keyword), !facts.statements.contains(keyword)
        else { return }
        report(.unsupportedByEngine(keyword, engine: engineName), at: statement.location)
    }

    /// A sharing kind of `chaos mix` (`share`, `unshare`) needs an engine that carries out
    /// that statement, as the statement itself would.
    mutating func checkEngineSupportsSharing(_ share: ChaosShare) {
        guard let location = share.location else { return }
        let keyword = share.kind.rawValue
        forEachCheckedEngine { validator in
            guard let facts = validator.engineFacts,
                validator.options.engineStatements.contains(keyword),
                !facts.statements.contains(keyword) else { return }
            validator.report(
                .unsupportedByEngine(keyword, engine: validator.engineName), at: location)
        }
    }
}

extension DeviceAction {
    /// The statement's keyword as the format writes it (`reset-sync-data`, `accept`).
    public var keyword: String {
        switch self {
        case .insert: return "insert"
        case .update: return "update"
        case .delete: return "delete"
        case .begin: return "begin"
        case .save: return "save"
        case .rollback: return "rollback"
        case .batchDelete: return "batch-delete"
        case .sync: return "sync"
        case .autosync: return "autosync"
        case .offline: return "offline"
        case .online: return "online"
        case .kill: return "kill"
        case .launch: return "launch"
        case .stop: return "stop"
        case .start: return "start"
        case .resetSyncData: return "reset-sync-data"
        case .initializeSchema: return "initialize-schema"
        case .signOut: return "sign-out"
        case .signIn: return "sign-in"
        case .accountUnavailable: return "account-unavailable"
        case .accountAvailable: return "account-available"
        case .accountStatus: return "account-status"
        case .loseStore: return "lose-store"
        case .rebuildStore: return "rebuild-store"
        case .diskFull(let full): return full ? "disk-full" : "disk-ok"
        case .observe: return "observe"
        case .upgrade: return "upgrade"
        case .share, .sharePublic: return "share"
        case .acceptShare: return "accept"
        case .unshare: return "unshare"
        case .removeParticipant: return "remove"
        case .leaveShare: return "leave"
        }
    }
}
