import CloudSim

/// Something that happens to an engine; it handles one at a time.
public enum EngineEvent: Hashable, Sendable {
    /// The app launched and set the synchronizer up; `waiter` ends with the launch's sync.
    case launch(waiter: WaiterID?)
    /// The app saved the store (the engine reads the store's history for what changed).
    case storeSaved
    /// A silent push arrived.
    case push
    /// A timer the engine set fired.
    case timer(EngineTimer)
    case response(RequestID, CloudResponse)
    /// Resume after the probe point that handed out the ticket (the world lets triggers act
    /// there first). Every probe point gets exactly one, usually in the order they were passed
    /// (a trigger's action may come between); an engine that pauses at its points reports
    /// one it finds nothing paused for as an error.
    case resume(ProbeTicket)
    /// The app called the synchronizer (only calls the engine's profile supports arrive).
    case appCall(AppCall, waiter: WaiterID?)
    /// The store vanished or was rebuilt under the app.
    case storeReplaced
    /// The synchronizer observes the store again (set up after saves it did not see).
    case observerAttached
    /// `CKAccountChanged`: the device's account or its status changed.
    case accountChanged
    case networkChanged(online: Bool)
}
