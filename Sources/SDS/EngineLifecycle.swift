/// Where the sds engine is in its life: the engine-level states that exclude one another.
///
/// A launch makes a new engine (a kill drops the old one), so `notLaunched` comes once, first;
/// a synchronization runs only once launched, and one at a time (its steps: `SyncRun.step`).
/// The engine's other flags hold across these states and stay fields of their own, each
/// saying why (SDSEngine.swift): a run goes on to its end after `stop()` or ERR-2 (LIFE-1), a
/// timer set during a run fires after it, a retry can be set while the device waits for the
/// network.
///
/// Entered only through `launch()`, `start(_:)` and `end()`, each trapping where the move
/// is impossible (`preconditionFailure("sds: …")`).
enum EngineLifecycle {
    /// Made and not launched yet: no synchronization can start (`syncBlocker`).
    case notLaunched
    /// Launched; no synchronization runs.
    case idle
    /// Launched; this synchronization runs (one object, stepped in place).
    case running(SyncRun)

    /// The engine's launch (`.launch`): once per engine.
    mutating func launch() {
        guard case .notLaunched = self else {
            preconditionFailure("sds: a second launch (each launch makes a new engine)")
        }
        self = .idle
    }

    /// A synchronization starts (`requestSync`): only once launched, and while none runs.
    mutating func start(_ run: SyncRun) {
        switch self {
        case .idle:
            self = .running(run)
        case .notLaunched:
            preconditionFailure("sds: a synchronization started before the launch")
        case .running:
            preconditionFailure("sds: a synchronization started while one runs")
        }
    }

    /// The running synchronization ends (its last step, or ACCT-5's account change); it is
    /// handed back, moved out, so a caller stepping it unretained keeps it alive to its end.
    @discardableResult
    mutating func end() -> SyncRun {
        switch consume self {
        case .running(let run):
            self = .idle
            return run
        case .idle, .notLaunched:
            preconditionFailure("sds: a synchronization ended while none ran")
        }
    }

    /// Whether the engine was launched (stays so for its life).
    var isLaunched: Bool {
        if case .notLaunched = self { return false }
        return true
    }

    /// The running synchronization, or nil.
    var run: SyncRun? {
        if case .running(let run) = self { return run }
        return nil
    }

    /// The running synchronization, not retained: for a caller that steps it in place while
    /// only `end()` can drop it, and keeps what `end()` hands back to the run's end.
    var unretainedRun: Unmanaged<SyncRun>? {
        if case .running(let run) = self { return Unmanaged.passUnretained(run) }
        return nil
    }
}
