import CloudKit
import CloudSim
import Foundation
import Kernel
import LocalStore
import SortedMaps
import SyncContract

/// What a scenario's device keeps on its disk for an app SyncLab drives: the app's container
/// (its files, removed with the last copy of the disk), the record name of each model, and
/// how far the app has been handed the scenario's saves.
struct ScenarioAppData: EngineSyncData {
    var container: AppContainerLease?
    var names: SortedMap<ModelID, String> = [:]
    var position: Int64 = 0

    init() {}
}

/// An app-owned engine that scenario files drive: the app (a `ScenarioApp`) runs on the
/// device's `AppEngine`; the scenario's saves go to the app; after every event the app's
/// models are written to the device's store as the engine's, which is what every check and
/// the explorer read.
final class ScenarioAppEngine<App: ScenarioApp>: SyncContract.SyncEngine {
    typealias SyncData = ScenarioAppData

    let inner: AppEngine
    let containers: AppContainers
    let author: String
    private var app: ResultBox<App>?

    init(containers: AppContainers, author: String) {
        self.containers = containers
        self.author = author
        inner = AppEngine(containers: containers)
        inner.holdsPlaces = true
    }

    var state: EngineState { inner.state }

    func isIdle(now: SimTime) -> Bool { inner.isIdle(now: now) }

    func setAutosync(_ enabled: Bool) {}

    func handle(_ event: EngineEvent, context: inout EngineContext<SyncData>) -> [EngineEffect] {
        // The device's places are put in place once for the event's runs, not at each.
        guard let runtime = inner.runtime else { return handleInPlace(event, context: &context) }
        return runtime.inPlace { handleInPlace(event, context: &context) }
    }

    private func handleInPlace(_ event: EngineEvent,
        context: inout EngineContext<SyncData>) -> [EngineEffect] {
        var plain = EngineContext<AppSyncData>(
            now: context.now, device: context.device, account: context.account,
            accountStatus: context.accountStatus, isOnline: context.isOnline,
                isDiskFull: context.isDiskFull,
            store: context.store, syncData: AppSyncData(), names: context.names)
        var launched: (container: AppContainer, named: Bool)?
        if case .launch = event {
            let named = context.syncData.container == nil
            launched = (container(&context), named)
            inner.launchContainer = launched?.container
        }
        var effects = inner.handle(event, context: &plain)
        context.names = plain.names
        guard inner.runtime?.failure == nil else { return effects }
        if let launched {
            effects += launch(in: launched.container, named: launched.named, &context)
        }
        switch event {
        case .launch, .storeSaved, .observerAttached: effects += handOver(&context)
        default: break
        }
        effects += refresh(&context)
        return effects
    }

    /// The container this disk names (a fresh one on an empty disk), where the launch runs
    /// the app: its files, its `UserDefaults` and what SyncLab's watch keeps of the device.
    private func container(_ context: inout EngineContext<SyncData>) -> AppContainer {
        if let lease = context.syncData.container { return lease.container }
        let lease = containers.freshContainer(for: context.device)
        context.syncData.container = lease
        return lease.container
    }

    /// Starts the app in the launch's container; `named` when the disk learnt its name.
    private func launch(in container: AppContainer, named: Bool,
        _ context: inout EngineContext<SyncData>) -> [EngineEffect] {
        var effects: [EngineEffect] = []
        if named { effects.append(.write(DiskWrite(syncData: SyncDataBox(context.syncData)))) }
        app = inner.call { await App.launch(in: container) }
        return effects + inner.takeEffects()
    }

    /// Hands the scenario's saves since the last one handed to the app.
    private func handOver(_ context: inout EngineContext<SyncData>) -> [EngineEffect] {
        guard let app = app?.value else { return [] }
        let entries = context.store.history(after: context.syncData.position)
        guard let last = entries.last else { return [] }
        context.syncData.position = last.position
        var edits: [ScenarioEdit] = []
        for entry in entries where entry.author != author {
            for change in entry.changes { edits += edit(change, context: &context) }
        }
        var effects: [EngineEffect] = [.write(DiskWrite(syncData: SyncDataBox(context.syncData)))]
        guard !edits.isEmpty else { return effects }
        let handed = edits
        let failure = inner.call { () -> String? in
            do { try await app.apply(handed); return nil } catch { return "\(error)" }
        }
        effects += inner.takeEffects()
        if let message = failure?.value ?? nil {
            effects.append(
                EngineEffect.runtimeError("the app refused the scenario's save: \(message)"))
        }
        return effects
    }

    private func edit(_ change: HistoryChange,
        context: inout EngineContext<SyncData>) -> [ScenarioEdit] {
        switch change {
        case .inserted(let id, let entity):
            let name = context.makeRandomRecordName()
            context.syncData.names[id] = name
            return [ScenarioEdit(id: name, kind: .insert(entity: entity),
                values: Self.values(of: id, in: context.store))]
        case .updated(let id, _, let keys):
            guard let name = context.syncData.names[id] else { return [] }
            let all = Self.values(of: id, in: context.store)
            return [ScenarioEdit(id: name, kind: .update,
                values: all.filter { keys.contains($0.key) })]
        case .deleted(let id, _, _):
            guard let name = context.syncData.names[id] else { return [] }
            return [ScenarioEdit(id: name, kind: .delete, values: [:])]
        }
    }

    /// Writes the app's models into the device's store, as the engine's save.
    private func refresh(_ context: inout EngineContext<SyncData>) -> [EngineEffect] {
        guard let app = app?.value, let box = inner.call({ await app.models() }),
            let models = box.value else {
            return inner.takeEffects()
        }
        var effects = inner.takeEffects()
        var transaction = Transaction()
        var seen: Set<ModelID> = []
        let schema = context.store.schema
        let live = liveModels(names: context.syncData.names, store: context.store)
        for model in models.sorted(by: { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }) {
            // What the scenario's entity does not declare is the app's own business.
            guard let entity = schema.entity(named: model.entity) else { continue }
            let isDeclared = { (key: String) in entity.attribute(named: key) != nil }
            // The live model of that name: a name the app deleted and brings back (its data
            // wiped at a sign-out, then downloaded again) also names the deleted model, and
            // taking that one would insert the model anew at every refresh, without end.
            if let id = live[model.id] {
                seen.insert(id)
                let stored = context.store.values(of: id)
                var changed: [String: PropertyValue] = [:]
                for (key, value) in model.values where isDeclared(key) { // tidy: ordered (a dict)
                    guard stored?[key].map(Self.scenarioValue) != value else { continue }
                    changed[key] = .attribute(Self.attribute(value))
                }
                if !changed.isEmpty { transaction.append(.update(id, values: changed)) }
            } else {
                let declared = model.values.filter { isDeclared($0.key) } // tidy: ordered (a dict)
                let values = declared.mapValues { PropertyValue.attribute(Self.attribute($0)) }
                let id = context.store.makeModelID()
                context.syncData.names[id] = model.id
                seen.insert(id)
                transaction.append(.insert(id, entity: model.entity, values: values))
            }
        }
        for id in context.store.modelIDs where !seen.contains(id) {
            transaction.append(.delete(id))
        }
        guard !transaction.isEmpty else { return effects }
        do {
            try context.store.save(transaction, author: author)
            context.syncData.position = context.store.lastHistoryPosition
            effects.append(context.writeAll)
        } catch {
            effects.append(.runtimeError(
                "the app's models do not fit the scenario's entities: \(error)"))
        }
        return effects
    }

    /// The first live model (in identifier order) of each record name.
    private func liveModels(names: SortedMap<ModelID, String>, store: Store) -> [String: ModelID] {
        var live: [String: ModelID] = [:]
        for (id, name) in names where live[name] == nil { // tidy: ordered (a SortedMap)
            if store.entity(of: id) != nil { live[name] = id }
        }
        return live
    }

    static func values(of id: ModelID, in store: Store) -> [String: ScenarioValue] {
        var values: [String: ScenarioValue] = [:]
        let stored = store.values(of: id) ?? [:]
        for (key, value) in stored { // tidy: ordered (a SortedMap: key order)
            values[key] = scenarioValue(value)
        }
        return values
    }

    static func scenarioValue(_ value: AttributeValue) -> ScenarioValue {
        switch value {
        case .string(let text): return .string(text)
        case .int(let number): return .int(Int(number))
        case .double(let number): return .double(number)
        case .bool(let flag): return .bool(flag)
        case .date(let milliseconds):
            return .date(Date.init(timeIntervalSince1970: Double(milliseconds) / 1000))
        case .uuid(let text): return .uuid(text)
        case .url(let text): return .url(text)
        case .data(let bytes): return .data(Data(bytes))
        }
    }

    static func attribute(_ value: ScenarioValue) -> AttributeValue {
        switch value {
        case .string(let text): return .string(text)
        case .int(let number): return .int(Int64(number))
        case .double(let number): return .double(number)
        case .bool(let flag): return .bool(flag)
        case .date(let date):
            return .date(
                millisecondsSince1970: Int64((date.timeIntervalSince1970 * 1000).rounded()))
        case .uuid(let text): return .uuid(text)
        case .url(let text): return .url(text)
        case .data(let data): return .data(Array(data))
        }
    }
}
