/// The checks that depend on the scenario's engine, from the facts its callers pass.
extension Validator {
    /// The engine the scenario runs on: the override, else its `engine` line, else `sds`.
    var engineName: String {
        options.engineOverride ?? scenario.header.effectiveEngine
    }

    /// What the caller told about that engine; nil when it told nothing.
    var engineFacts: EngineFacts? {
        options.engineFacts[engineName]
    }

    /// An engine-dependent statement the scenario's engine does not support is an error
    /// naming the engine.
    mutating func checkEngineSupports(_ statement: DeviceActionStatement) {
        guard let facts = engineFacts else { return }
        let keyword = statement.action.keyword
        guard options.engineStatements.contains(keyword), !facts.statements.contains(keyword)
        else { return }
        report(.unsupportedByEngine(keyword, engine: engineName), at: statement.location)
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
        case .loseStore: return "lose-store"
        case .rebuildStore: return "rebuild-store"
        case .diskFull(let full): return full ? "disk-full" : "disk-ok"
        case .observe: return "observe"
        case .upgrade: return "upgrade"
        case .share: return "share"
        case .acceptShare: return "accept"
        case .unshare: return "unshare"
        case .removeParticipant: return "remove"
        case .leaveShare: return "leave"
        }
    }
}
