import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

/// The local changes of one push, read from the history (HIS-5, HIS-6).
struct HistoryChangeSet {
    struct Update {
        var model: ModelID
        var keys: [String]
    }

    var insertions: [ModelID] = []
    var updates: [Update] = []
    /// Tombstones: the model, its entity and `recordName` (HIS-6).
    var deletions: [(model: ModelID, entity: String, recordName: String)] = []
    /// Models read from a batch delete (HIS-40).
    var batchDeleted = 0

    var isEmpty: Bool { insertions.isEmpty && updates.isEmpty && deletions.isEmpty }
    var count: Int { insertions.count + updates.count + deletions.count }
}

extension HistoryEngine {
    /// HIS-5, HIS-7: the transactions after the staged token, else the persisted one, not by
    /// the sync author; `relevant.last?.token` is staged (nil when nothing is relevant).
    func readChanges(context: inout HistoryContext) -> HistoryChangeSet {
        let persisted = context.syncData.persistedToken
        let lastToken = stagedToken ?? persisted
        let relevant = context.store.persistentHistory(after: lastToken)
            .filter { $0.author != Self.author }
        if stageLeftByFailure, let staged = stagedToken {
            noteSkippedFailedChanges(staged: staged, nothingNew: relevant.isEmpty,
                context: context)
        }
        stageLeftByFailure = false
        stagedToken = relevant.last?.token
        var set = HistoryChangeSet()
        var order: [ModelID] = []
        var inserted: Set<ModelID> = []
        var updatedKeys: [ModelID: Set<String>] = [:]
        var deleted: [ModelID: String] = [:]
        for transaction in relevant {
            for change in transaction.changes {
                let id = Self.model(of: change)
                if !order.contains(id) { order.append(id) }
                switch change {
                case .inserted:
                    inserted.insert(id)
                    deleted[id] = nil
                case .updated(_, _, let keys):
                    updatedKeys[id, default: []].formUnion(keys)
                case .deleted(_, let entity, _):
                    inserted.remove(id)
                    updatedKeys[id] = nil
                    deleted[id] = entity
                    if transaction.isBatchDelete { set.batchDeleted += 1 }
                }
            }
        }
        var skipped = 0
        for id in order {
            if let entityName = deleted[id] {
                guard schema.entity(named: entityName)?.isSynchronized ?? false else { continue }
                guard let name = context.syncData.bindings.name(of: id) else {
                    skipped += 1
                    continue
                }
                set.deletions.append((id, entityName, name))
                continue
            }
            guard let model = context.store.model(id),
                let entity = schema.entity(named: model.entity),
                  entity.isSynchronized else {
                skipped += 1
                continue
            }
            if inserted.contains(id) || context.syncData.bindings.name(of: id) == nil {
                set.insertions.append(id)
            } else if let keys = updatedKeys[id] {
                let synchronized = Set(HistoryRecords.uploadedAttributes(of: entity).map(\.name)
                    + entity.relationships.filter { entity.sync.includes($0.name) }.map(\.name))
                let kept = keys.filter(synchronized.contains).sorted()
                if !kept.isEmpty { set.updates.append(.init(model: id, keys: kept)) }
            }
        }
        traceRead(set, after: lastToken, transactions: relevant.count, skipped: skipped)
        return set
    }

    /// HISW-1: the failed push's changes are behind the staged token, so this read skips them.
    private func noteSkippedFailedChanges(staged: HistoryToken, nothingNew: Bool,
        context: HistoryContext) {
        let skipped = context.store.persistentHistory(after: context.syncData.persistedToken)
            .filter { $0.author != Self.author && $0.token <= staged }
        let models = Set(skipped.flatMap { $0.changes.map(Self.model(of:)) })
        guard !models.isEmpty else { return }
        effects.append(.trace(kind: "push.skips-failed-changes", details: [
            TraceField("case", .string(nothingNew ? "a" : "b")),
            TraceField("stagedToken", .string(staged.description)),
            TraceField("skippedModels", .int(Int64(models.count))),
            TraceField("note", .string(nothingNew
                ? "nothing new after the staged token: this push uploads nothing, the "
                    + "failed changes wait"
                : "only the new changes are read: their success persists the token past "
                    + "the failed ones")),
        ], rules: ["HISW-1", "HIS-5", "HIS-7"]))
    }

    /// What the read found and staged (HIS-5, HIS-6, HIS-7), and a batch delete in it (HIS-40).
    private func traceRead(_ set: HistoryChangeSet, after lastToken: HistoryToken?,
        transactions: Int, skipped: Int) {
        effects.append(.trace(kind: "history.read", details: [
            TraceField("after", .string(lastToken?.description ?? "nil")),
            TraceField("transactions", .int(Int64(transactions))),
            TraceField("insertions", .int(Int64(set.insertions.count))),
            TraceField("updates", .int(Int64(set.updates.count))),
            TraceField("deletions", .int(Int64(set.deletions.count))),
            TraceField("skipped", .int(Int64(skipped))),
            TraceField("staged", .string(stagedToken?.description ?? "nil")),
        ], rules: ["HIS-5", "HIS-6", "HIS-7"]))
        if set.batchDeleted > 0 {
            effects.append(.trace(kind: "history.batch-delete-read", details: [
                TraceField("models", .int(Int64(set.batchDeleted))),
            ], rules: ["HIS-40"]))
        }
    }

    static func model(of change: HistoryChange) -> ModelID {
        switch change {
        case .inserted(let id, _), .updated(let id, _, _), .deleted(let id, _, _): return id
        }
    }

    /// HIS-2: the model's `recordName`, a UUID named once and kept.
    func recordName(of id: ModelID, entity: EntityDescription,
        context: inout HistoryContext) -> String {
        if let known = context.syncData.bindings.name(of: id) { return known }
        let name = context.makeRandomRecordName()
        context.syncData.bindings.bind(id, to: name)
        effects.append(.trace(kind: "record.named", details: [
            TraceField("model", .string(id.description)),
            TraceField("recordName", .string(name)),
        ], rules: entity.identity.isEmpty ? ["HIS-2"] : ["HIS-2", "HIS-39"]))
        return name
    }

    /// HIS-8: `markAsPushed`: the staged token is persisted; with no unconsumed transaction
    /// left, the whole history is deleted.
    func markAsPushed(context: inout HistoryContext) {
        if let staged = stagedToken {
            context.syncData.persistedToken = staged
            stagedToken = nil
            effects.append(.trace(kind: "token.committed", details: [
                TraceField("token", .string(staged.description)),
            ], rules: ["HIS-7", "HIS-18"]))
        }
        let left = context.store.persistentHistory(after: context.syncData.persistedToken)
        if left.isEmpty, let token = context.syncData.persistedToken {
            context.store.deletePersistentHistory(through: token)
            effects.append(.trace(kind: "history.deleted", details: [
                TraceField("through", .string(token.description)),
            ], rules: ["HIS-8"]))
        }
        effects.append(context.writeAll)
    }
}
