import CloudSim
import Kernel
import LocalStore
import SyncContract

extension HistoryEngine {
    /// HIS-9: setup is three requests, one after the other: the zone, the private
    /// database's subscription, the shared database's; each failure goes to the recovery
    /// policy on its own and the next request runs.
    func setupNext(_ operation: HistoryOperation, context: inout HistoryContext) {
        switch setupStep(of: operation) {
        case 0:
            send(.modifyZones(scope: .privateDatabase, save: [zone(owner: nil, context)],
                delete: []),
                 for: operation)
        case 1:
            send(.saveDatabaseSubscription(scope: .privateDatabase), for: operation)
        case 2:
            send(.saveDatabaseSubscription(scope: .sharedDatabase), for: operation)
        default:
            effects.append(.trace(kind: "setup.done", details: [], rules: ["HIS-9"]))
            nextPhase(operation, context: &context)
        }
    }

    func setupAnswered(_ response: CloudResponse, _ operation: HistoryOperation,
                       context: inout HistoryContext) {
        let index = setupStep(of: operation)
        let step = ["zone", "private subscription", "shared subscription"][min(index, 2)]
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
            let probes = recover(failure, perItem: false, during: operation, context: &context)
            operation.stage = .setup(step: index + 1)
            pass(probes, then: .setupNext, operation, context: &context)
            return
        }
        effects.append(.trace(kind: "setup.step", details: [
            TraceField("step", .string(step)),
        ], rules: index == 0 ? ["HIS-9", "HIS-1"] : ["HIS-9"]))
        operation.stage = .setup(step: index + 1)
        setupNext(operation, context: &context)
    }

    /// The setup request now running; a setup step runs only in the setup phase.
    private func setupStep(of operation: HistoryOperation) -> Int {
        guard case .setup(let step) = operation.stage else {
            preconditionFailure("history: a setup step outside the setup phase")
        }
        return step
    }
}
