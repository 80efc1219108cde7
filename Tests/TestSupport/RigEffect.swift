import CloudSim
import Kernel
import SyncContract

/// An effect as a value a test compares in full: the request, timer, probe, trace (with its
/// details) or which parts a write writes.
public enum RigEffect: Equatable {
    case send(CloudRequest)
    case setTimer(String, SimTime)
    case cancelTimer(String)
    case probe(String)
    case trace(String, [TraceField], [String])
    case completed(WaiterID)
    case failed(WaiterID)
    case write(store: Bool, syncData: Bool)

    public init(_ effect: EngineEffect) {
        switch effect {
        case .send(_, let request): self = .send(request)
        case .setTimer(let timer, let delay): self = .setTimer(timer.rawValue, delay)
        case .cancelTimer(let timer): self = .cancelTimer(timer.rawValue)
        case .probe(let name, _): self = .probe(name)
        case .trace(let kind, let details, let rules): self = .trace(kind, details, rules)
        case .completed(let waiter): self = .completed(waiter)
        case .failed(let waiter, _): self = .failed(waiter)
        case .write(let write):
            self = .write(store: write.store != nil, syncData: write.syncData != nil)
        }
    }
}
