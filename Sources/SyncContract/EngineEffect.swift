import CloudSim
import Kernel

/// What an engine asks the device and the kernel to do after handling an event.
public enum EngineEffect: Sendable {
    /// Indirect: a cloud request is large, and held inline it made every effect its size
    /// (129 bytes), each move of a trace or a write a copy of all of it.
    indirect case send(RequestID, CloudRequest)
    case setTimer(EngineTimer, after: SimTime)
    case cancelTimer(EngineTimer)
    /// Pass a probe point: triggers run here, then the engine gets `.resume` at the same time.
    case probe(String)
    /// Pass a probe point as one of several synchronizations that run at once on the device
    /// (naive's operations, NAIVE-5): each passes the contract's order on its own, and the
    /// trace's `probe` names it (`sync`). Otherwise the same as `probe`.
    case probeIn(String, synchronization: Int)
    /// Pass a probe point in line: traced as `probe`, but no `.resume` follows, since the
    /// engine went on as if it had got it at once. Allowed only as often in an event as its
    /// conditions say (`DeviceConditions.probesPassInLine`): only when nothing could have
    /// come between the probe point and its `.resume`, so that the run is the same.
    case probePassed(String)
    /// A decision or fact for the trace; `rules` are the rule IDs that decided it.
    case trace(kind: String, details: [TraceField], rules: [String])
    /// A waiting script action is done.
    case completed(WaiterID)
    /// A waiting script action ended without doing what it was asked (an
    /// `initializeSchema()` that failed); `reason` says why, for the trace and the leftovers.
    case failed(WaiterID, reason: String)
    /// Write the store and/or the sync data to disk (see `DiskWrite`).
    case write(DiskWrite)
}

extension EngineEffect {
    /// Whether the effect passes a probe point (`probe`, `probeIn` or `probePassed`).
    @inline(__always)
    public var isProbe: Bool {
        switch self {
        case .probe, .probeIn, .probePassed: return true
        default: return false
        }
    }

    /// The probe point the effect passes, if it passes one.
    public var probePoint: String? {
        switch self {
        case .probe(let name), .probeIn(let name, _), .probePassed(let name): return name
        default: return nil
        }
    }
}
