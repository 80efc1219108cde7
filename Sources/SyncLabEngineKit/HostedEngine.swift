import CKSyncEngineSim
import CloudSim
import Kernel
import LocalStore
import SyncContract

/// A user's engine under SyncLab: the `SyncEngine` the devices run, made of the simulated
/// CKSyncEngine, the user's delegate and app code (run on the kernel's executor), and the
/// device's disk as a `LocalDatabase`.
///
/// It turns the device's events into CKSyncEngine's entry points (a launch creates the engine
/// from the persisted serialization, a push is `handlePush()`, an answer `handleResponse`, a
/// timer `handleTimer`, `sync` is `fetchChanges()` then `sendChanges()`), hands the app's saves
/// to `storeDidSave`, and passes the contract's probe points at the matching events.
public final class HostedEngine<User: SyncLabEngine>: SyncContract.SyncEngine {
    public typealias SyncData = HostSyncData<User.Metadata>

    let core: HostCore
    let pageSize: Int
    var database: LocalDatabase<User.Metadata>!
    var user: User?
    var facade: CKSyncEngine!
    var bridge: DelegateBridge<User>!
    /// Waiters of `launch` and `sync`: done when an operation ran and none is left.
    var waiters: [(waiter: WaiterID, armed: Bool)] = []
    /// A fetch completed with this launch (`downloaded-once`).
    var fetchedOnce = false

    init(author: String, pageSize: Int) {
        core = HostCore(author: author)
        self.pageSize = pageSize
    }

    public var state: EngineState {
        if core.sim?.isBusy == true { return .syncing }
        return .idle
    }

    public func isIdle(now: SimTime) -> Bool {
        core.failure != nil || (core.sim?.isBusy != true && core.requests.isEmpty)
    }

    /// `autosync off` has no CKSyncEngine counterpart the app controls at run time; the
    /// hosted engine keeps `automaticallySync` on (docs/BRING-YOUR-OWN-ENGINE.md).
    public func setAutosync(_ enabled: Bool) {}

    public func handle(_ event: EngineEvent, context: inout EngineContext<SyncData>) -> [EngineEffect] {
        guard core.failure == nil else { return [] }
        core.context = DeviceConditions(
            now: context.now, device: context.device, account: context.account,
            accountStatus: context.accountStatus, isOnline: context.isOnline, isDiskFull: context.isDiskFull,
            isTracing: context.isTracing)
        if let database {
            database.workingStore = context.store
            database.workingMetadata = context.syncData.metadata
            database.historyPosition = context.syncData.historyPosition
        }
        var effects: [EngineEffect] = []
        switch event {
        case .launch(let waiter):
            launch(context: context)
            if let waiter { waiters.append((waiter, false)) }
            storeSaved()
        case .storeSaved, .observerAttached:
            storeSaved()
        case .push:
            effects += core.sim.handlePush()
        case .timer(let timer):
            if !core.wake(timer) { effects += core.sim.handleTimer(timer) ?? [] }
        case .response(let id, let response):
            if !core.answer(id, response) { effects += core.sim.handleResponse(id, response) ?? [] }
        case .resume:
            break
        case .appCall(let call, let waiter):
            if call == .syncNow {
                effects += core.sim.fetchChanges()
                effects += core.sim.sendChanges()
                if let waiter { waiters.append((waiter, false)) }
            } else if let waiter {
                effects.append(.completed(waiter))
            }
        case .storeReplaced:
            effects.append(.trace(kind: "kit.store-replaced", details: [], rules: []))
        case .accountChanged:
            effects += core.sim.accountChanged()
        case .networkChanged:
            break
        }
        effects += core.takeEffects()
        core.resumeIdleWaiters()
        effects += core.takeEffects()
        if core.failure == nil { effects += completeWaiters() }
        return Self.markingUploads(effects)
    }

    func launch(context: EngineContext<SyncData>) {
        database = LocalDatabase(core: core, store: context.store, syncData: context.syncData)
        let serialization = context.syncData.metadata.stateSerialization
        let database = self.database!
        user = core.run("the engine's init", mayWait: false) { User(database: database) }
        guard let user else { return }
        bridge = DelegateBridge(host: self, user: user)
        core.sim = CKSyncEngineSim.CKSyncEngine(.init(
            database: .privateDatabase, stateSerialization: serialization, delegate: bridge,
            automaticallySync: true, fetchResultsLimit: pageSize))
        facade = CKSyncEngine(host: core)
    }

    /// Hands the app's saves since the last handed position to the engine.
    func storeSaved() {
        guard let user, let database, core.failure == nil else { return }
        let entries = database.workingStore.history(after: database.historyPosition)
        database.historyPosition = database.workingStore.lastHistoryPosition
        let edits = entries.filter { $0.author != core.author }
        guard !edits.isEmpty else { return }
        let facade = self.facade!
        _ = core.run("storeDidSave", mayWait: true) { await user.storeDidSave(edits, syncEngine: facade) }
    }

    func completeWaiters() -> [EngineEffect] {
        guard let sim = core.sim else { return [] }
        if sim.isBusy {
            for index in waiters.indices { waiters[index].armed = true }
            return []
        }
        let done = waiters.filter(\.armed)
        waiters.removeAll(where: \.armed)
        return done.map { .completed($0.waiter) }
    }

    /// `upload.sent` right after each record request leaves.
    static func markingUploads(_ effects: [EngineEffect]) -> [EngineEffect] {
        var marked: [EngineEffect] = []
        for effect in effects {
            marked.append(effect)
            if case .send(_, .modifyRecords) = effect { marked.append(.probe("upload.sent")) }
        }
        return marked
    }
}

/// The simulated engine's (synchronous) delegate: runs each of the user's `async` methods on
/// the kernel's executor to its end, and passes the contract's probe points around them.
final class DelegateBridge<User: SyncLabEngine>: CKSyncEngineSim.CKSyncEngineDelegate {
    unowned let host: HostedEngine<User>
    let user: User
    /// A page was fetched and stored; the next `stateUpdate` persists its tokens.
    var pageUnsaved = false

    init(host: HostedEngine<User>, user: User) {
        self.host = host
        self.user = user
    }

    func handleEvent(_ event: CKSyncEngineSim.CKSyncEngine.Event, syncEngine: CKSyncEngineSim.CKSyncEngine) {
        let core = host.core
        guard core.failure == nil else { return }
        switch event {
        case .willFetchChanges: core.emit([.probe("sync.start"), .probe("download.start")])
        case .willSendChanges: core.emit([.probe("sync.start")])
        case .fetchedRecordZoneChanges: core.emit([.probe("download.page.fetched")])
        case .didFetchChanges: core.emit([.probe("download.done")])
        default: break
        }
        let user = self.user
        let facade = host.facade!
        core.inCallback = true
        _ = core.run("handleEvent(\(event.name))", mayWait: false) {
            await user.handleEvent(event, syncEngine: facade)
        }
        core.inCallback = false
        switch event {
        case .fetchedRecordZoneChanges:
            core.emit([.probe("download.page.stored")])
            pageUnsaved = true
        case .stateUpdate where pageUnsaved:
            pageUnsaved = false
            core.emit([.probe("download.page.saved")])
        case .didFetchChanges:
            host.fetchedOnce = true
            core.emit([.probe("sync.done")])
        case .sentRecordZoneChanges: core.emit([.probe("upload.done")])
        case .didSendChanges: core.emit([.probe("sync.done")])
        default: break
        }
    }

    func nextRecordZoneChangeBatch(
        _ context: CKSyncEngineSim.CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngineSim.CKSyncEngine
    ) -> CKSyncEngineSim.CKSyncEngine.RecordZoneChangeBatch? {
        let core = host.core
        guard core.failure == nil else { return nil }
        let user = self.user
        let facade = host.facade!
        core.inCallback = true
        let batch = core.run("nextRecordZoneChangeBatch", mayWait: false) {
            await user.nextRecordZoneChangeBatch(context, syncEngine: facade)
        } ?? nil
        core.inCallback = false
        if batch != nil { core.emit([.probe("upload.start")]) }
        return batch
    }
}
