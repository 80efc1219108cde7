import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

extension NaiveEngine {
    /// The app launched: nothing is pending (NAIVE-14); the diagnostic ledger names what the
    /// previous run lost (NAIVEW-2, NAIVEW-6); then the zone (NAIVE-2), the subscriptions
    /// (NAIVE-3) and the download (NAIVE-7), one after the other.
    func launch(waiter: WaiterID?, context: inout NaiveContext) {
        historyPosition = context.store.lastHistoryPosition
        launchAccount = context.account
        onlineSince = context.isOnline ? context.now : nil
        effects.append(.trace(kind: "launch.nothing-pending", details: [
            TraceField("historyPosition", .int(historyPosition)),
        ], rules: ["NAIVE-14"]))
        reportLedger(context: &context)
        let setup = makeOperation(.setup(NaiveSetup(
            step: isLiteral ? .fetchSubscription(0) : .fetchZone, waiter: waiter)))
        if isLiteral {
            // `CKRecord.ID(recordName:)` names no zone: the records go to the default zone,
            // which needs no setup (NAIVE-15).
            effects.append(.trace(kind: "zone.default", details: [
                TraceField("zone", .string(zone(context).description)),
            ], rules: ["NAIVE-15"]))
        }
        sendSetupStep(setup, context: &context)
    }

    /// Traces what the ledger still holds from the previous run, and empties it.
    private func reportLedger(context: inout NaiveContext) {
        let unsent = context.syncData.unsentOperations
        let unfinished = context.syncData.unfinishedZoneFetches
        guard !unsent.isEmpty || !unfinished.isEmpty else { return }
        if !unsent.isEmpty {
            effects.append(.trace(kind: "operations.lost", details: [
                TraceField("records", .list(unsent.map { .string("\($0.kind) \($0.recordName)") })),
                TraceField("note",
                    .string("never sent before the app was killed; nothing remembers them")),
            ], rules: ["NAIVEW-2", "NAIVE-14"]))
        }
        if !unfinished.isEmpty {
            effects.append(.trace(kind: "zone-fetch.interrupted", details: [
                TraceField("zones", .list(unfinished.map { .string($0.description) })),
                TraceField("note", .string("the database token was saved before the fetch ended: "
                    + "the zone's changes stay hidden until it changes again")),
            ], rules: ["NAIVEW-6"]))
        }
        context.syncData.unsentOperations = []
        context.syncData.unfinishedZoneFetches = []
        writeSyncData(context)
    }

    /// Sends the request of the setup's current step, or starts the download when the steps
    /// are done.
    func sendSetupStep(
        _ setup: NaiveOperation, context: inout NaiveContext
    ) {
        let state = setup.setup
        let entities = synchronizedEntities
        switch state.step {
        case .fetchZone:
            send(.fetchZone(scope: .privateDatabase, zone: zone(context)), for: setup)
        case .createZone:
            send(.modifyZones(scope: .privateDatabase, save: [zone(context)], delete: []),
                 for: setup)
        case .fetchSubscription(let index):
            guard index < entities.count else {
                finishSetup(setup, context: &context)
                return
            }
            send(.fetchSubscription(scope: .privateDatabase,
                id: Self.subscriptionID(of: entities[index])),
                 for: setup)
        case .saveSubscription(let index):
            let entity = entities[index]
            let subscription = QuerySubscription(
                id: Self.subscriptionID(of: entity), recordType: entity.name,
                firesOnCreation: true, firesOnUpdate: true, firesOnDeletion: true)
            send(.saveQuerySubscription(scope: .privateDatabase, subscription),
                 for: setup)
        }
    }

    /// NAIVE-3: the article's `note-changes-subscription`, for every entity.
    static func subscriptionID(of entity: EntityDescription) -> String {
        "\(entity.name.lowercased())-changes-subscription"
    }

    func setupAnswered(
        _ response: CloudResponse, _ setup: NaiveOperation,
        context: inout NaiveContext
    ) {
        let state = setup.setup
        let zone = zone(context)
        switch (state.step, response) {
        case (.fetchZone, .zoneFetched):
            hasZone = true
            effects.append(.trace(kind: "zone.exists", details: [
                TraceField("zone", .string(zone.description)),
            ], rules: ["NAIVE-2"]))
            state.step = .fetchSubscription(0)
        case (.fetchZone, .failure(let error)) where error.code == .zoneNotFound:
            effects.append(.trace(kind: "zone.missing", details: [
                TraceField("zone", .string(zone.description)),
            ], rules: ["NAIVE-2"]))
            state.step = .createZone
        case (.createZone, .zonesModified):
            hasZone = true
            var rules = ["NAIVE-2"]
            var details = [TraceField("zone", .string(zone.description))]
            let named = context.syncData.bindings.sortedModels.filter {
                context.store.contains($0) && !namedThisLaunch.contains($0)
            }
            if !named.isEmpty {
                // The zone existed before (these models had records in it): what was in it is
                // never uploaded again. Models named by this launch's saves, which went out
                // ahead of the setup (NAIVE-5), never had a record in it.
                rules.append("NAIVEW-11")
                details.append(TraceField("modelsNotUploaded", .int(Int64(named.count))))
            }
            effects.append(.trace(kind: "zone.created", details: details, rules: rules))
            state.step = .fetchSubscription(0)
        case (.fetchSubscription(let index), .subscriptionFetched(let subscription)):
            effects.append(.trace(kind: "subscription.exists", details: [
                TraceField("subscription", .string(subscription.id)),
            ], rules: ["NAIVE-3"]))
            state.step = .fetchSubscription(index + 1)
        case (.fetchSubscription(let index), .failure(let error)) where error.code == .unknownItem:
            effects.append(.trace(kind: "subscription.missing", details: [
                TraceField("subscription",
                    .string(Self.subscriptionID(of: synchronizedEntities[index]))),
            ], rules: ["NAIVE-3"]))
            state.step = .saveSubscription(index)
        case (.saveSubscription(let index), .subscriptionSaved):
            effects.append(.trace(kind: "subscription.created", details: [
                TraceField("subscription",
                    .string(Self.subscriptionID(of: synchronizedEntities[index]))),
            ], rules: ["NAIVE-3"]))
            state.step = .fetchSubscription(index + 1)
        case (_, .failure(let error)):
            if let delay = Self.retryDelay(for: error) {
                traceRetry(error, delay: delay, setup)
                run(.scheduleRetry(delay), setup, context: &context)
                return
            }
            traceDrop(error, setup, rules: ["NAIVE-6"])
            state.step = Self.stepAfter(state.step)
        default:
            effects.append(.trace(kind: "setup.unexpected-answer", details: [], rules: []))
            state.step = Self.stepAfter(state.step)
        }
        sendSetupStep(setup, context: &context)
    }

    /// The step after one whose request was dropped: the next one runs (NAIVE-2's choice).
    static func stepAfter(_ step: NaiveOperation.SetupStep) -> NaiveOperation.SetupStep {
        switch step {
        case .fetchZone, .createZone: return .fetchSubscription(0)
        case .fetchSubscription(let index), .saveSubscription(let index):
            return .fetchSubscription(index + 1)
        }
    }

    private func finishSetup(
        _ setup: NaiveOperation, context: inout NaiveContext
    ) {
        operations[setup.number] = nil
        startDownload(.launch, waiter: setup.setup.waiter, context: &context)
    }
}
