import CKSyncEngineSim
import CloudSim
import Kernel
import SyncContract

/// What SyncLab keeps on a device's disk for an app-owned engine: nothing; the app keeps its
/// own files in its container.
public struct AppSyncData: EngineSyncData {
    public init() {}
}

/// A device whose sync engine the app owns: the world's events go to the app's
/// `CKSyncEngine`s and to its tasks waiting for an answer or a sleep; the effects the app's
/// code makes go back to the world, in order.
public final class AppEngine: SyncContract.SyncEngine {
    public typealias SyncData = AppSyncData

    let containers: AppContainers
    /// What the app does at launch (a scenario's app); nil when a test builds the app itself.
    let launchApp: (@Sendable (DeviceRuntime) async -> Void)?
    public private(set) var runtime: DeviceRuntime?
    private var waiters: [WaiterID] = []

    public init(containers: AppContainers,
        launchApp: (@Sendable (DeviceRuntime) async -> Void)? = nil) {
        self.containers = containers
        self.launchApp = launchApp
    }

    /// Whether the device's folders and `UserDefaults` values stay in place once its code
    /// is done, until another device's code runs or this engine ends: for a world whose
    /// process runs no code of its own meanwhile (a scenario's, the explorer's).
    package var holdsPlaces = false
    /// The container the next launch runs the app in (nil: the one of the device's name):
    /// a scenario's device names its own on its disk, so no two runs share one.
    package var launchContainer: AppContainer?

    deinit {
        runtime?.isRunning = false
        // The runtime and its CKSyncEngines hold each other: a sweep would keep every run's.
        runtime?.engines = []
        // So do its observers' blocks when they hold the app's objects.
        runtime?.observers = []
        runtime?.pathMonitors = []
        if holdsPlaces, let runtime { StandardDirectories.release(runtime.container) }
    }

    public var state: EngineState { isBusy ? .syncing : .idle }

    private var isBusy: Bool { !(runtime?.isIdle ?? true) }

    public func isIdle(now: SimTime) -> Bool { runtime?.failure != nil || !isBusy }

    public func setAutosync(_ enabled: Bool) {}

    public func handle(_ event: EngineEvent,
        context: inout EngineContext<SyncData>) -> [EngineEffect] {
        let conditions = DeviceConditions(
            now: context.now, device: context.device, account: context.account,
            accountStatus: context.accountStatus, isOnline: context.isOnline,
                isDiskFull: context.isDiskFull,
            isTracing: context.isTracing)
        if case .launch(let waiter) = event {
            let runtime = DeviceRuntime(
                conditions: conditions,
                container: launchContainer ?? containers.container(of: context.device),
                names: context.names)
            // The next launch draws from a stream of its own, not this one's again.
            context.names = Xoshiro256StarStar(seed: context.names.next())
            runtime.holdsPlaces = holdsPlaces
            self.runtime = runtime
            if let launchApp { _ = runtime.start { await launchApp(runtime) } }
            if let waiter { waiters.append(waiter) }
        }
        guard let runtime else { return [] }
        runtime.conditions = conditions
        return runtime.inPlace {
            if runtime.failure == nil { dispatch(event, runtime) }
            runtime.run()
            return Self.markingUploads(runtime.takeEffects()) + completedWaiters()
        }
    }

    private func dispatch(_ event: EngineEvent, _ runtime: DeviceRuntime) {
        let engines = runtime.engines
        switch event {
        case .response(let id, let response):
            guard !runtime.answer(id, response) else { return }
            for engine in engines {
                if let effects = engine.sim.handleResponse(id, response) {
                    runtime.effects += effects
                    return
                }
            }
        case .timer(let timer):
            guard !runtime.wake(timer) else { return }
            for engine in engines {
                if let effects = engine.sim.handleTimer(timer) {
                    runtime.effects += effects
                    return
                }
            }
        case .push:
            for engine in engines { runtime.emit(engine.sim.handlePush()) }
            runtime.deliverRemoteNotifications()
        case .accountChanged:
            for engine in engines { runtime.emit(engine.sim.accountChanged()) }
            runtime.postAccountChanged()
        case .networkChanged(let online):
            if online {
                for engine in engines { runtime.emit(engine.sim.networkReturned()) }
            }
            runtime.pathChanged(online: online)
        case .appCall(let call, let waiter):
            if call == .syncNow {
                for engine in engines {
                    runtime.emit(engine.sim.fetchChanges())
                    runtime.emit(engine.sim.sendChanges())
                }
            }
            if let waiter { waiters.append(waiter) }
        default:
            break
        }
    }

    /// Starts the app's code on this device (a test's `device.run`) at `now`, the world's
    /// time; its effects are taken with `takeEffects()`.
    public func call<Value: Sendable>(at now: SimTime? = nil,
                                      _ body: @escaping @Sendable () async -> Value)
        -> ResultBox<Value>? {
        guard let runtime, runtime.failure == nil else { return nil }
        // Between events the device's clock stands where its last event left it.
        if let now { runtime.conditions.now = now }
        let box = runtime.start(body)
        return box
    }

    /// The effects of code run by `call`, for the world to carry out.
    public func takeEffects() -> [EngineEffect] {
        guard let runtime else { return [] }
        runtime.run()
        return Self.markingUploads(runtime.takeEffects()) + completedWaiters()
    }

    private func completedWaiters() -> [EngineEffect] {
        guard !isBusy, !waiters.isEmpty else { return [] }
        let done = waiters
        waiters = []
        return done.map { .completed($0) }
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
