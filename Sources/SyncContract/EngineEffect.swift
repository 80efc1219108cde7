import CloudSim
import Kernel

/// What an engine asks the device and the kernel to do after handling an event.
public enum EngineEffect: Sendable {
    /// Indirect: a cloud request is large, and held inline it made every effect its size
    /// (129 bytes), each move of a trace or a write a copy of all of it.
    indirect case send(RequestID, CloudRequest)
    case setTimer(EngineTimer, after: SimTime)
    case cancelTimer(EngineTimer)
    /// Pass a probe point: triggers run here, then the engine gets `.resume(ticket)` at the
    /// same time. The world may resume it in line, within the same delivery, when nothing
    /// could come between the two; the run is the same either way.
    case probe(String, ticket: ProbeTicket = .sole)
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
    /// Whether the effect passes a probe point.
    @inline(__always)
    public var isProbe: Bool {
        if case .probe = self { return true }
        return false
    }

    /// The probe point the effect passes, if it passes one.
    public var probePoint: String? {
        switch self {
        case .probe(let name, _): return name
        default: return nil
        }
    }
}
