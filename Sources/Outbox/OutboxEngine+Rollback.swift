import EngineKit
import Kernel
import LocalStore
import SyncContract

extension OutboxEngine {
    /// OBX-5: the app rolled a transaction back. The seed writes the outbox row in the same
    /// SwiftData transaction as the model (OBX-4), so the row is rolled back with it: nothing
    /// is written and nothing is sent. The engine only traces what was discarded (every
    /// change, also of entities it does not synchronize, which never get a row anyway); a row
    /// an earlier save of the same model wrote stays, as that save did happen.
    public func rolledBack(
        _ discarded: DiscardedTransaction, context: inout OutboxContext
    ) -> [EngineEffect] {
        var models: [TraceValue] = []
        var kinds: [TraceValue] = []
        var earlierRows: [TraceValue] = []
        for change in discarded.changes {
            let name = context.syncData.bindings.name(of: change.model)
            models.append(.string(name ?? "new \(change.entity)"))
            kinds.append(.string(change.kind.rawValue))
            if let name, context.syncData.rows[name] != nil, !earlierRows.contains(.string(name)) {
                earlierRows.append(.string(name))
            }
        }
        guard !models.isEmpty else { return [] }
        var details = [
            TraceField("models", .list(models)),
            TraceField("changes", .list(kinds)),
            TraceField("note",
                .string("the row is rolled back with the model: no outbox row, nothing sent")),
        ]
        if !earlierRows.isEmpty {
            details.append(TraceField("earlierRows", .list(earlierRows)))
        }
        return [.trace(kind: "outbox.rolled-back", details: details, rules: ["OBX-5"])]
    }
}
