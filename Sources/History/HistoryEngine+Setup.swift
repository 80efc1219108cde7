import CloudSim
import Kernel
import LocalStore
import SyncContract

extension HistoryEngine {
    /// HIS-9: setup is three requests, one after the other: the zone, the private
    /// database's subscription, the shared database's; each failure goes to the recovery
    /// policy on its own and the next request runs.
    func setupNext(_ operation: HistoryOperation, context: inout HistoryContext,
        effects: inout [EngineEffect]) {
        switch operation.setupIndex {
        case 0:
            send(.modifyZones(scope: .privateDatabase, save: [zone(owner: nil, context)],
                delete: []),
                 for: operation, effects: &effects)
        case 1:
            send(.saveDatabaseSubscription(scope: .privateDatabase), for: operation,
                effects: &effects)
        case 2:
            send(.saveDatabaseSubscription(scope: .sharedDatabase), for: operation,
                effects: &effects)
        default:
            effects.append(.trace(kind: "setup.done", details: [], rules: ["HIS-9"]))
            nextPhase(operation, context: &context, effects: &effects)
        }
    }

    func setupAnswered(_ response: CloudResponse, _ operation: HistoryOperation,
                       context: inout HistoryContext, effects: inout [EngineEffect]) {
        let step = ["zone", "private subscription", "shared subscription"][min(operation.setupIndex,
            2)]
        var failure: CloudError?
        switch response {
        case .failure(let error): failure = error
        case .zonesModified(_, _, let failed): failure = failed.first?.error
        default: break
        }
        if let failure {
            effects.append(.trace(kind: "setup.failed", details: [
                TraceField("step", .string(step)),
                TraceField("error", .string(failure.code.description)),
                TraceField("note", .string("handled on its own; the next step runs")),
            ], rules: ["HIS-9"]))
            let probes = recover(failure, perItem: false, during: operation, context: &context,
                effects: &effects)
            operation.setupIndex += 1
            pass(probes, then: .setupNext, operation, context: &context, effects: &effects)
            return
        }
        effects.append(.trace(kind: "setup.step", details: [
            TraceField("step", .string(step)),
        ], rules: operation.setupIndex == 0 ? ["HIS-9", "HIS-1"] : ["HIS-9"]))
        operation.setupIndex += 1
        setupNext(operation, context: &context, effects: &effects)
    }
}
