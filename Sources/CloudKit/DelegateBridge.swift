import CKSyncEngineSim
import CloudSim
import SyncContract

/// The simulated engine's (synchronous) delegate: converts each event to Apple's types, runs
/// the app's `async` delegate method on the device's executor, and passes the contract's probe
/// points around it.
///
/// A delegate method runs until it returns; one that waits for simulated time (a request of
/// its own, a sleep) keeps the engine waiting where Apple's would: after a page of changes or
/// `willSendChanges` the engine goes on once the method returns; elsewhere the run fails,
/// naming the event.
final class DelegateBridge: CKSyncEngineSim.CKSyncEngineDelegate {
    unowned let engine: CKSyncEngine
    weak var delegate: (any CKSyncEngineDelegate)?
    /// A page was handled; the next `stateUpdate` persists its tokens.
    private var pageUnsaved = false
    /// Traces the weaknesses of docs/APP-RULES.md around the delegate's answers.
    private let watch: AppWeaknessWatch

    init(engine: CKSyncEngine, delegate: (any CKSyncEngineDelegate)?) {
        self.engine = engine
        self.delegate = delegate
        watch = engine.runtime.container.weaknessWatch(of: engine.database.databaseScope.simulated)
    }

    private var runtime: DeviceRuntime { engine.runtime }

    func handleEvent(_ event: SimEngine.Event, syncEngine: SimEngine) {
        guard runtime.failure == nil, runtime.isRunning, let delegate else { return }
        switch event {
        case .willFetchChanges: syncEngine.append([.probe("sync.start"), .probe("download.start")])
        case .willSendChanges: syncEngine.append([.probe("sync.start")])
        case .fetchedRecordZoneChanges: syncEngine.append([.probe("download.page.fetched")])
        case .didFetchChanges: syncEngine.append([.probe("download.done")])
        default: break
        }
        syncEngine.append(watch.before(event, engine: syncEngine))
        let converted = CKSyncEngine.Event(event, account: runtime.account)
        engine.noteSent(converted)
        let facade = engine
        let box = runtime.startCallback { await delegate.handleEvent(converted,
            syncEngine: facade) }
        if box.value == nil, runtime.failure == nil {
            waitForDelegate(event, box: box, syncEngine: syncEngine)
        }
        syncEngine.append(watch.after(event, state: syncEngine.state))
        switch event {
        case .fetchedRecordZoneChanges:
            syncEngine.append([.probe("download.page.stored")])
            pageUnsaved = true
        case .stateUpdate where pageUnsaved:
            pageUnsaved = false
            syncEngine.append([.probe("download.page.saved")])
        case .didFetchChanges: syncEngine.append([.probe("sync.done")])
        case .sentRecordZoneChanges: syncEngine.append([.probe("upload.done")])
        case .didSendChanges: syncEngine.append([.probe("sync.done")])
        default: break
        }
    }

    /// The delegate's method is waiting for simulated time: Apple's engine awaits it.
    private func waitForDelegate(_ event: SimEngine.Event, box: ResultBox<Void>,
        syncEngine: SimEngine) {
        switch event {
        case .fetchedRecordZoneChanges, .willSendChanges:
            syncEngine.deferEventCompletion()
            runtime.deferred.append((box: { box.value != nil }, complete: { [unowned syncEngine] in
                syncEngine.completeDeferredEvent()
            }))
        default:
            runtime.fail("handleEvent(\(event.name)) waited for simulated time "
                + "(a request or a sleep); SyncLab's CKSyncEngine waits for the delegate only "
                + "after fetchedRecordZoneChanges and willSendChanges: start the work in a Task "
                + "and return")
        }
    }

    func nextRecordZoneChangeBatch(
        _ context: SimEngine.SendChangesContext, syncEngine: SimEngine
    ) -> SimEngine.RecordZoneChangeBatch? {
        guard runtime.failure == nil, runtime.isRunning, let delegate else { return nil }
        let converted = CKSyncEngine.SendChangesContext(context, account: runtime.account)
        let facade = engine
        let box = runtime.startCallback { await delegate.nextRecordZoneChangeBatch(converted,
            syncEngine: facade) }
        guard let answer = box.value else {
            runtime.fail("nextRecordZoneChangeBatch waited for simulated time "
                + "(a request or a sleep); "
                + "fetch what the batch needs before the send")
            return nil
        }
        guard let batch = answer else { return nil }
        let simulated = batch.simulated(account: engine.account)
        syncEngine.append(watch.batch(simulated))
        syncEngine.append([.probe("upload.start")])
        return simulated
    }
}
