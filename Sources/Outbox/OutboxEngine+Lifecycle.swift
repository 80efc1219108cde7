import CKSyncEngineSim
import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

extension OutboxEngine {
    /// The app launched: a pending `resetPersistedState()` takes effect (OBX-37), the
    /// private engine starts from its last serialization (and the shared one when a shared
    /// zone is tracked, OBX-8), every owned collection with local models is ensured (OBX-3)
    /// and the outbox reconciled (OBX-7).
    func launch(waiter: WaiterID?) {
        historyPosition = store.lastHistoryPosition
        lastRejectionReason = data.lastRejectionReason
        if data.resetAtNextLaunch {
            data.resetAtNextLaunch = false
            data.zones = []
            data.zoneOwner = nil
            data.prepared = []
            data.privateState = nil
            data.sharedState = nil
            trace("reset.applied", [
                TraceField("note",
                    .string("zone manifest and both engine states forgotten; local data kept")),
            ], ["OBX-37"])
            writeSyncData()
        }
        guard account != nil else {
            signedOut = true
            trace("account.none", [], ["OBX-26"])
            if let waiter { effects.append(.completed(waiter)) }
            return
        }
        launchWaiter = waiter
        noteVanishedModels()
        let unsent = data.orderedRows.filter {
            $0.attempted || $0.rejection == nil
        }.map(\.recordName)
        if !unsent.isEmpty {
            trace("outbox.found-at-launch", [
                TraceField("records", .list(unsent.map { .string($0) })),
                TraceField("note",
                    .string("rows on disk are staged again: nothing a kill interrupted is lost")),
            ], ["OBX-33"])
        }
        if data.pageAwaitingState {
            trace("fetch.page-again", [
                TraceField("note",
                    .string("killed between a page being applied and its stateUpdate: fetched and "
                    + "applied again")),
            ], ["OBX-33"])
        }
        makePrivateEngine()
        activateSharedEngineIfNeeded()
        ensureOwnedZones(reason: "launch")
        reconcileOutbox(reason: "launch")
    }

    func makePrivateEngine() {
        let engine = CKSyncEngine(.init(
            database: .privateDatabase, stateSerialization: data.privateState, delegate: self,
            automaticallySync: autosync, timerPrefix: "outbox.private", firstRequestNumber: 0,
            fetchResultsLimit: pageSize))
        privateEngine = engine
        take(engine.takeEffects())
    }

    /// OBX-8: the shared engine exists only while a shared zone is tracked.
    func activateSharedEngineIfNeeded() {
        let needed = data.zones.contains { $0.role == .participant }
        if needed, sharedEngine == nil {
            let engine = CKSyncEngine(.init(
                database: .sharedDatabase, stateSerialization: data.sharedState, delegate: self,
                automaticallySync: autosync, timerPrefix: "outbox.shared",
                firstRequestNumber: 500_000_000,
                fetchResultsLimit: pageSize))
            sharedEngine = engine
            trace("engine.shared-activated", [], ["OBX-8"])
            take(engine.takeEffects())
        } else if !needed, sharedEngine != nil, !(sharedEngine?.isBusy ?? false) {
            sharedEngine = nil
            trace("engine.shared-deactivated", [], ["OBX-8"])
        }
    }

    /// The CKSyncEngine timers, and nothing else of the engine's own: the world fires only
    /// timers armed for this incarnation, and the adapter arms none itself.
    func timerFired(_ timer: EngineTimer) {
        let name = timer.rawValue
        guard let scope = Self.scope(of: timer) else {
            preconditionFailure("outbox: timer \(name) fired, which no CKSyncEngine of outbox arms")
        }
        let isPrivate = scope == .privateDatabase
        if name.hasSuffix(".retry-send") || name.hasSuffix(".retry-fetch") {
            withOperation(scope) { $0.waitingForRetry = false }
            trace("retry.due", [TraceField("timer", .string(name))], ["OBX-19"])
        }
        for engine in [privateEngine, sharedEngine].compactMap({ $0 }) {
            if let produced = engine.handleTimer(timer) {
                take(produced)
                return
            }
        }
        // Ignored: the shared engine armed it, and was deactivated since (OBX-8).
        precondition(!isPrivate, "outbox: the private engine's timer \(name) found no engine")
    }

    /// An answer to the adoption check, or to a CKSyncEngine's request.
    func answered(_ id: RequestID, _ response: CloudResponse) {
        if id == adoptionRequest {
            adoptionRequest = nil
            adoptionAnswered(response)
            return
        }
        for engine in [privateEngine, sharedEngine].compactMap({ $0 }) {
            if let produced = engine.handleResponse(id, response) {
                take(produced)
                return
            }
        }
        // Ignored: a killed incarnation's request that reached the cloud after the kill is
        // answered to this one (its id one this incarnation may use too, or have used).
    }

    /// A push: the private engine fetches (OBX-8), and the shared database is checked for a
    /// share this device accepted (OBX-29, the accepted share's metadata).
    func pushed() {
        guard autosync else {
            trace("push.ignored", [TraceField("reason", .string("autosync off"))], [])
            return
        }
        if let engine = privateEngine { take(engine.handlePush()) }
        if let engine = sharedEngine { take(engine.handlePush()) }
        checkForAcceptedShares()
    }

    /// `CKAccountChanged`: the CKSyncEngines check the account before their next operation
    /// (OBX-26); a temporarily unavailable account resets nothing (OBX-27).
    func accountChanged() {
        accountCheckNumber += 1
        let status = working?.accountStatus ?? .noAccount
        trace("account.check", [
            TraceField("request", .int(Int64(accountCheckNumber))),
            TraceField("status", .string(status.description)),
        ], ["OBX-27"])
        if status == .temporarilyUnavailable {
            accountUnavailable = true
            trace("account.temporarily-unavailable", [
                TraceField("note", .string("retried; nothing reset")),
            ], ["OBX-27", "OBX-19"])
            return
        }
        accountUnavailable = false
        if account == nil || status != .available {
            signedOut = true
            if privateEngine == nil { return }
        } else if signedOut || privateEngine == nil {
            signedOut = false
            if privateEngine == nil { makePrivateEngine() }
        }
        for engine in [privateEngine, sharedEngine].compactMap({ $0 }) {
            take(engine.accountChanged())
        }
    }

    /// OBX-8, OBX-9: offline, nothing is sent; back online, a pending send runs at once.
    func networkChanged(online: Bool) {
        isOnline = online
        guard online else {
            trace("network.offline",
                [TraceField("note", .string("the system scheduler waits for the network"))],
                  ["OBX-8"])
            return
        }
        for engine in [privateEngine, sharedEngine].compactMap({ $0 }) {
            let pending = !engine.state.pendingRecordZoneChanges.isEmpty
                || !engine.state.pendingDatabaseChanges.isEmpty
            if pending {
                trace("network.online-send", [
                    TraceField("database", .string(engine.database.rawValue)),
                    TraceField("note",
                        .string("a pending send runs at once; a fetch waits for a push")),
                ], ["OBX-9"])
                take(engine.sendChanges())
            }
            if engine.fetchRetryPending {
                // A fetch that failed offline was due: it runs now, not at the end of its backoff.
                trace("network.online-fetch", [
                    TraceField("database", .string(engine.database.rawValue)),
                    TraceField("note", .string("a fetch that was due runs at once")),
                ], ["OBX-9"])
                take(engine.networkReturned())
            }
        }
    }

    func appCall(_ call: AppCall, waiter: WaiterID?) {
        switch call {
        case .syncNow:
            fetchChangesNow(waiter: waiter)
        case .resetSyncData(let deleteAll):
            data.resetAtNextLaunch = true
            trace("reset.requested", [
                TraceField("note",
                    .string("resetPersistedState(): takes effect at the next launch")),
            ], ["OBX-37"])
            if deleteAll {
                deleteAllBeforeForgetting()
            } else {
                writeSyncData()
            }
            if let waiter { effects.append(.completed(waiter)) }
        case .stop, .start, .initializeSchema:
            // Refused by the validator (the profile does not list them, OBX-37).
            trace("app-call.unsupported", [TraceField("call", .string(call.statement))], ["OBX-37"])
            if let waiter { effects.append(.completed(waiter)) }
        }
    }

    /// OBX-37 (choice): `then delete-all` empties the store before the reset forgets, as the
    /// adapter's own save (never recorded, so no deletion is uploaded and the records stay in
    /// iCloud); the emptied models' rows, names and archives are forgotten with them. Store
    /// and sync data are written together, so a kill leaves both or neither.
    func deleteAllBeforeForgetting() {
        var transaction = Transaction()
        for model in store.models { transaction.append(.delete(model.id)) }
        if !transaction.isEmpty {
            do {
                try store.save(transaction, author: Self.author)
            } catch {
                trace("reset.delete-all-refused", [
                    TraceField("error", .string(String(describing: error))),
                ], ["OBX-37"])
                writeSyncData()
                return
            }
        }
        historyPosition = store.lastHistoryPosition
        for id in data.bindings.sortedModels {
            guard let name = data.bindings.name(of: id) else { continue }
            if data.rows[name]?.mutation == .save { data.removeRow(name) }
            data.archives[name] = nil
            data.collections[name] = nil
            data.bindings.forget(id)
        }
        writeAll()
        trace("reset.before-forgetting", [
            TraceField("deleted", .int(Int64(transaction.operations.count))),
            TraceField("note",
                .string("every local model deleted, not recorded: the records stay in iCloud")),
        ], ["OBX-37"])
    }

    /// OBX-10: Sync Now is `fetchChangesNow()`: ensure the zones and reconcile (a detached
    /// send, OBXW-12), then fetch the private database, then the shared one (OBX-9).
    func fetchChangesNow(waiter: WaiterID?) {
        guard let privateEngine, !signedOut else {
            trace("sync.unavailable", [TraceField("reason", .string("no account"))], ["OBX-26"])
            if let waiter { effects.append(.completed(waiter)) }
            return
        }
        trace("sync.now", [TraceField("note", .string("fetchChangesNow()"))], ["OBX-10"])
        noteVanishedModels()
        ensureOwnedZones(reason: "sync")
        reconcileOutbox(reason: "sync")
        if let waiter { syncWaiters.append(waiter) }
        syncSteps = [.send, .fetchPrivate] + (sharedEngine == nil ? [] : [.fetchShared])
        _ = privateEngine
        runSyncSteps()
    }

    /// Runs the next Sync Now step when the engines are free.
    func runSyncSteps() {
        while let step = syncSteps.first {
            switch step {
            case .send:
                syncSteps.removeFirst()
                trace("send.detached", [
                    TraceField("note", .string("sendChanges() outside any delegate callback")),
                ], ["OBXW-12", "OBX-9"])
                if let engine = privateEngine { take(engine.sendChanges()) }
                if let engine = sharedEngine { take(engine.sendChanges()) }
            case .fetchPrivate:
                syncSteps.removeFirst()
                if let engine = privateEngine { take(engine.fetchChanges()) }
            case .fetchShared:
                syncSteps.removeFirst()
                if let engine = sharedEngine { take(engine.fetchChanges()) }
            }
        }
        finishWaitersIfIdle()
    }

    func finishWaitersIfIdle() {
        let busy = (privateEngine?.isBusy ?? false) || (sharedEngine?.isBusy ?? false)
            || adoptionRequest != nil
        guard !busy else { return }
        for waiter in syncWaiters { effects.append(.completed(waiter)) }
        syncWaiters = []
        if let waiter = launchWaiter, let engine = privateEngine, !engine.isBusy {
            // The launch's first fetch ran (or there was nothing to run). One that failed ends
            // the launch too: the app is running, CKSyncEngine retries the fetch by itself
            // (OBX-19) and runs it at once when the network returns (OBX-9).
            if !launchFetched, let failure = engine.lastFetchFailure {
                trace("launch.fetch-failed", [
                    TraceField("error", .string(failure.code.description)),
                    TraceField("retry", .bool(engine.fetchRetryPending)),
                ], failure.code.isTransient ? ["OBX-19"] : [])
                effects.append(.completed(waiter))
                launchWaiter = nil
            } else if launchFetched {
                effects.append(.completed(waiter))
                launchWaiter = nil
            }
        }
    }

    /// The store vanished or was rebuilt: record names of models that are gone are forgotten.
    func storeReplaced() {
        historyPosition = store.lastHistoryPosition
        let gone = data.bindings.sortedModels.filter { !store.contains($0) }
        for model in gone { data.bindings.forget(model) }
        trace("store.replaced", [TraceField("forgotten", .int(Int64(gone.count)))], [])
        if !gone.isEmpty { writeSyncData() }
    }
}
