import CloudSim
import Device
import Kernel
import LocalStore
import Scenario
import SyncContract

extension World {
    /// Runs a device action; `waiting` is false inside triggers, where nothing can wait.
    func perform(_ statement: DeviceActionStatement, waiting: Bool) {
        guard let index = index(ofDevice: statement.device.value) else {
            fail("unknown device '\(statement.device.value)'")
            return
        }
        // Any action may change the store (a save, a batch delete, a lost store).
        noteStoreChanged(index)
        // Named by index: the device read out of `devices` was retained for every action.
        record("script", "action", [TraceField("line", .int(Int64(currentLine))),
                                    TraceField("device", .string(deviceNames[index])),
                                    TraceField("action", .string(Self.name(of: statement.action)))])
        let wait = waiting && !statement.runsInBackground
        switch statement.action {
        case .insert, .update, .delete, .begin, .save, .rollback, .batchDelete:
            performStoreAction(statement.action, device: index)
        case .sync, .stop, .start, .resetSyncData, .initializeSchema:
            performAppCall(statement.action, device: index, wait: wait)
        case .signOut, .signIn, .accountUnavailable, .accountAvailable, .accountStatus:
            performAccountAction(statement.action, device: index)
        case .autosync, .offline, .online, .kill, .launch, .loseStore, .rebuildStore, .diskFull,
             .upgrade, .observe:
            performDeviceChange(statement.action, device: index, wait: wait)
        case .share, .sharePublic, .acceptShare, .unshare, .removeParticipant, .leaveShare:
            performSharing(statement.action, device: index)
        }
    }

    /// The store statements: inserts, updates, deletes, transactions and batch deletes.
    private func performStoreAction(_ action: DeviceAction, device index: Int) {
        // Read unretained for the drawn operations (`unretainedDevices`); the others, rare,
        // hold the device.
        let unretained = unretainedDevices[index]
        switch action {
        case .insert(let entity, let label, let values):
            guard requireRunning(index) else { return }
            guard let properties = properties(values, entity: entity.value, device: index) else {
                return
            }
            let id = unretained._withUnsafeGuaranteedRef { $0.makeModelID() }
            labels.bind(label.value, device: index, model: id)
            save(.insert(id, entity: entity.value, values: properties), device: index)
        case .update(let label, let values):
            guard requireRunning(index), let id = requireModel(label.value, on: index),
                  let entity = unretained._withUnsafeGuaranteedRef({
                      $0.store.entity(of: id) ?? $0.unsavedEntity(of: id)
                  }),
                  let properties = properties(values, entity: entity, device: index) else { return }
            save(.update(id, values: properties), device: index)
        case .delete(let label):
            guard requireRunning(index),
                  let id = requireModel(label.value, on: index) else { return }
            save(.delete(id), device: index)
        case .begin:
            guard requireRunning(index) else { return }
            let device = devices[index]
            device.begin()
        case .save:
            guard requireRunning(index) else { return }
            let device = devices[index]
            do {
                if try device.commit() { storeSaved(index) }
            } catch {
                fail("the store refused the save: \(describe(error, on: index))")
            }
        case .rollback:
            if let discarded = devices[index].rollback() { deliverRollback(discarded, to: index) }
        case .batchDelete(let entity, let filter):
            let device = devices[index]
            var values: [String: LocalStore.AttributeValue] = [:]
            let description = schema.entity(named: entity.value)
            for assignment in filter {
                guard let attribute = description?.attribute(named: assignment.key.value),
                      let value = ValueConversion.attributeValue(
                          assignment.value.literal, type: attribute.type)
                else { continue }
                values[assignment.key.value] = value
            }
            let deleted = device.batchDelete(entity: entity.value, where: values)
            record(device.name, "store.batch-deleted",
                   [TraceField("models", .int(Int64(deleted.count)))])
            if !deleted.isEmpty, let report = afterBatchDelete { report(index, deleted) }
            // An engine that reads the batch delete from history hears of it as of a save.
            if profile.observesBatchDeletes, !deleted.isEmpty, device.isRunning {
                deliver(Self.storeSavedEvent, to: index)
            }
        default:
            break
        }
    }

    /// The calls the script makes on the running app: sync, stop, start, reset-sync-data
    /// and initialize-schema; the script waits for those that finish when `wait`.
    private func performAppCall(_ action: DeviceAction, device index: Int, wait: Bool) {
        let device = devices[index]
        guard requireRunning(index) else { return }
        switch action {
        case .sync:
            let waiter = makeWaiter(for: index, action: "sync")
            deliver(.appCall(.syncNow, waiter: waiter), to: index)
            if wait { waitFor(waiter, what: "'\(device.name): sync'") }
        case .stop:
            deliver(.appCall(.stop, waiter: nil), to: index)
        case .start:
            let waiter = makeWaiter(for: index, action: "start")
            deliver(.appCall(.start, waiter: waiter), to: index)
            if wait { waitFor(waiter, what: "'\(device.name): start'") }
        case .resetSyncData(let deleteAll):
            let waiter = makeWaiter(for: index, action: Self.name(of: action))
            deliver(.appCall(.resetSyncData(deleteAll: deleteAll), waiter: waiter), to: index)
            if wait { waitFor(waiter, what: "'\(device.name): reset-sync-data'") }
        case .initializeSchema:
            let waiter = makeWaiter(for: index, action: "initialize-schema")
            deliver(.appCall(.initializeSchema, waiter: waiter), to: index)
            if wait { waitFor(waiter, what: "'\(device.name): initialize-schema'") }
        default:
            break
        }
    }

    /// The account statements: sign-in, sign-out and the account's status.
    private func performAccountAction(_ action: DeviceAction, device index: Int) {
        let device = devices[index]
        switch action {
        case .signOut:
            changeAccount(index, to: nil, status: .noAccount)
        case .signIn(let account):
            changeAccount(index, to: account.value, status: .available)
        case .accountUnavailable:
            changeAccount(index, to: device.account, status: .temporarilyUnavailable)
        case .accountAvailable:
            changeAccount(index, to: device.account,
                          status: device.account == nil ? .noAccount : .available)
        case .accountStatus(let setting):
            let status = Self.status(setting.value, account: device.account)
            changeAccount(index, to: device.account, status: status)
        default:
            break
        }
    }

    /// The device's own state: its app's life, network, store, disk, version and observer.
    private func performDeviceChange(_ action: DeviceAction, device index: Int, wait: Bool) {
        let device = devices[index]
        switch action {
        case .autosync(let enabled):
            device.autosync = enabled
        case .offline:
            setOnline(false, device: index)
            record(device.name, "network.offline")
            deliver(.networkChanged(online: false), to: index)
        case .online:
            setOnline(true, device: index)
            record(device.name, "network.online")
            if network.pushMissed[index] && !network.pushScheduled[index] {
                network.pushMissed[index] = false
                if !pushDropped(index) { schedulePush(to: index) }
            }
            deliver(.networkChanged(online: true), to: index)
        case .kill:
            kill(index)
        case .launch:
            launch(index, wait: wait)
        case .loseStore:
            device.loseStore()
            record(device.name, "store.lost")
            if device.isRunning { deliver(.storeReplaced, to: index) }
        case .rebuildStore:
            let pairs = device.rebuildStore()
            record(device.name, "store.rebuilt", [TraceField("models", .int(Int64(pairs.count)))])
            if device.isRunning { deliver(.storeReplaced, to: index) }
        case .diskFull(let full):
            device.isDiskFull = full
            record(device.name, full ? "disk.full" : "disk.ok")
        case .upgrade(let version):
            // A new version of the app: it is quit, installed, and launched (the script waits).
            if device.isRunning { kill(index) }
            device.syncSelection = SyncView(version: version)
            record(device.name, "app.upgraded")
            launch(index, wait: wait)
        case .observe(let on):
            device.isObserved = on
            record(device.name, on ? "observer.attached" : "observer.detached")
            if on && device.isRunning { deliver(.observerAttached, to: index) }
        default:
            break
        }
    }

    /// Signs in, out, or changes the account's status; the engine hears `CKAccountChanged`.
    /// The script does not wait for the synchronization that follows.
    private func changeAccount(_ index: Int, to account: String?, status: AccountStatus) {
        let device = devices[index]
        device.account = account
        device.accountStatus = status
        record(device.name, "account.changed", [
            TraceField("account", account.map { .string($0) } ?? .null),
            TraceField("status", .string(status.description)),
        ])
        if device.isRunning { deliver(.accountChanged, to: index) }
        for (other, candidate) in devices.enumerated()
            where candidate.host === device && candidate.isRunning {
            deliver(.accountChanged, to: other)
        }
    }

    func launch(_ index: Int, wait: Bool) {
        let device = devices[index]
        guard !device.isRunning else {
            fail("device '\(device.name)' is already running; 'kill' it before 'launch'")
            return
        }
        device.launch()
        noteIncarnation(of: index)
        record(device.name, "app.launched",
               [TraceField("incarnation", .int(Int64(device.incarnation)))])
        let waiter = makeWaiter(for: index, action: "launch")
        deliver(.launch(waiter: waiter), to: index)
        if wait { waitFor(waiter, what: "'\(device.name): launch'") }
    }

    func kill(_ index: Int) {
        let device = devices[index]
        for event in timers[index].cancellationOrder { kernel.cancel(event) }
        timers[index] = ArmedTimers()
        device.kill()
        noteIncarnation(of: index)
        releaseWaiters(of: index)
        record(device.name, "app.killed")
    }

    /// Sets a device's network state, and the world's copy of it (`network.online`): the one
    /// way to change it once the world is built.
    func setOnline(_ isOnline: Bool, device index: Int) {
        devices[index].isOnline = isOnline
        network.online[index] = isOnline
    }

    /// Keeps `incarnations` and `lendsDisk` after a launch or a kill.
    private func noteIncarnation(of index: Int) {
        let device = devices[index]
        incarnations[index] = device.incarnation
        lendsDisk[index] = device.lendsDisk
    }

    /// Runs the simulation until a waiting action is done.
    ///
    /// Only a `.completed` or `.failed` effect of the action's engine ends it (a kill of its
    /// device too, which no in-line pass allows): no probe point is passed in line after one
    /// in the same event, so the wait cannot end between a probe point passed in line and
    /// its `.resume`.
    func waitFor(_ waiter: WaiterID, what: String) {
        run(while: { !waiters.isCompleted(waiter) }, bound: Self.waitBound,
            what: what, passesInLine: true)
    }

    private func save(_ operation: Transaction.Operation, device index: Int) {
        do {
            if try devices[index].perform(operation) { storeSaved(index) }
        } catch {
            fail("the store refused the save: \(describe(error, on: index))")
        }
    }

    /// A store's refusal as the scenario names things: a model by its label (or, with none,
    /// its record name), not the store's internal identifier.
    private func describe(_ error: StoreError, on index: Int) -> String {
        switch error {
        case .unknownModel(let id):
            let name = labels.label(of: id, on: index, devices: devices) ??
                labelName(of: id, on: index)
            return "no model \(name)"
        case .deleteDenied(let id, let relationship):
            let name = labels.label(of: id, on: index, devices: devices) ??
                labelName(of: id, on: index)
            return "'\(name)' cannot be deleted: relationship '\(relationship)' denies it"
        default:
            return error.description
        }
    }

    /// Tells the engine the app saved, and learns the record names it gave new models.
    private func storeSaved(_ index: Int) {
        record(devices[index].name, "store.saved")
        deliver(Self.storeSavedEvent, to: index)
        labels.resolveNames(devices: devices)
    }

    private func requireRunning(_ index: Int) -> Bool {
        guard unretainedDevices[index]._withUnsafeGuaranteedRef({ $0.isRunning }) else {
            fail("device '\(devices[index].name)' is not running; 'launch' it first")
            return false
        }
        if let failure = unretainedDevices[index]._withUnsafeGuaranteedRef({
            $0.storeLoadFailure
        }) {
            // The store never loaded (a runtime state, not an input error): the action fails
            // and changes nothing; the run goes on so that the scenario can check the state.
            record(devices[index].name, "action.failed", [
                TraceField("reason", .string("the store failed to load")),
                TraceField("error", .string("\(failure.domain) \(failure.code)")),
            ], rules: failure.rules)
            // Bounded: a story expects a few; a long run on a failed store must not grow it.
            if refusedActionsToExpect.count < 100 {
                refusedActionsToExpect.append("\(devices[index].name): the store failed to load "
                    + "(\(failure.domain) \(failure.code))")
            }
            return false
        }
        return true
    }

    private func requireModel(_ label: String, on index: Int) -> ModelID? {
        labels.resolveNames(devices: devices)
        guard let id = labels.model(label, on: index, devices: devices) else {
            let why = whyMissing(label, on: index)
            fail("device '\(devices[index].name)' has no model for label '\(label)'"
                + (why.isEmpty ? "" : ": " + why))
            return nil
        }
        return id
    }

    /// Empty property tables with room for 0…`emptyPropertyTableCapacity` keys, shared:
    /// `properties` starts from the one of its statement's size, and its first key makes the
    /// table's own copy of that size. `Dictionary(minimumCapacity:)` runs unspecialized and
    /// looks the storage's generic type up on every call; the copy takes the specialized path.
    /// One table per size, not one of the largest: a script of a million inserts holds a
    /// million of these tables until its save, so oversized ones would raise the peak memory
    /// of `synclab bench --download 1000000` (docs/BENCH.md).
    private static let emptyPropertyTables = (0...emptyPropertyTableCapacity).map { capacity in
        [String: PropertyValue](minimumCapacity: capacity)
    }
    private static let emptyPropertyTableCapacity = 8

    /// The store values of `key=value` assignments; relationships take labels.
    private func properties(
        _ assignments: [Assignment], entity: String, device index: Int
    ) -> [String: PropertyValue]? {
        guard let description = schema.entity(named: entity) else {
            fail("unknown entity '\(entity)'")
            return nil
        }
        // Sized once: grown key by key, it was rehashed about once per key (a fifth of the
        // cost of an insert's or update's properties). Most statements fit the shared empty
        // table, whose copy is made at the first key (see `emptyPropertyTables`).
        var result = assignments.count <= Self.emptyPropertyTableCapacity
            ? Self.emptyPropertyTables[assignments.count]
            : [String: PropertyValue](minimumCapacity: assignments.count)
        // The attribute found by position and only its type read: `attribute(named:)` copied
        // the whole description out for every assignment.
        let attributes = description.attributes
        // Each assignment read in place: the loop's copy of it retained every string it holds.
        for number in assignments.indices {
            let key = assignments[number].key.value
            if let position = attributes.firstIndex(where: { $0.name == key }) {
                let type = attributes[position].type
                if case .null = assignments[number].value.literal {
                    result[key] = .attribute(nil)
                } else if let value = ValueConversion.attributeValue(
                    assignments[number].value.literal, type: type) {
                    result[key] = .attribute(value)
                } else {
                    fail("'\(assignments[number].value.text)' is not a value of type "
                        + type.rawValue)
                    return nil
                }
            } else if let relationship = description.relationship(named: key) {
                switch assignments[number].value.literal {
                case .null:
                    result[key] = relationship.isToMany ? .relationships([]) : .relationship(nil)
                case .label(let label):
                    guard let target = requireModel(label, on: index) else { return nil }
                    result[key] = relationship.isToMany
                        ? .relationships([target]) : .relationship(target)
                default:
                    fail("relationship '\(key)' takes a label, not "
                        + "'\(assignments[number].value.text)'")
                    return nil
                }
            } else {
                fail("entity '\(entity)' has no property '\(key)'")
                return nil
            }
        }
        return result
    }

    /// The `CKAccountStatus` of `account-status`: without an account, `available` is
    /// `noAccount` (as `account-available`), the other values stand as written.
    static func status(_ setting: AccountStatusSetting, account: String?) -> AccountStatus {
        switch setting {
        case .available: return account == nil ? .noAccount : .available
        case .restricted: return .restricted
        case .couldNotDetermine: return .couldNotDetermine
        case .temporarilyUnavailable: return .temporarilyUnavailable
        }
    }

    /// The action as the trace names it: the statement's keyword, with the words that change
    /// what it does (`autosync on`, `reset-sync-data then delete-all`, `accept share`).
    static func name(of action: DeviceAction) -> String {
        switch action {
        case .autosync(let on): return on ? "autosync on" : "autosync off"
        case .resetSyncData(let deleteAll):
            return deleteAll ? "reset-sync-data then delete-all" : "reset-sync-data"
        case .observe(let on): return on ? "observe on" : "observe off"
        case .accountStatus(let setting): return "account-status " + setting.value.rawValue
        case .acceptShare: return "accept share"
        case .sharePublic: return "share public"
        case .leaveShare: return "leave share"
        default: return action.keyword
        }
    }
}
