import CloudSim
import Kernel
import LocalStore
import SDS
import SyncContract
import Testing

/// Drives one `sds` engine against a real simulated cloud with zero latency, so each test
/// reads as the sequence of effects the engine asks for.
private final class Driver {
    let schema = Schema(entities: [
        EntityDescription(
            name: "Note",
            attributes: [
                AttributeDescription(name: "title", type: .string, defaultValue: .string("")),
                AttributeDescription(name: "body", type: .string, isOptional: true),
            ]
        ),
        EntityDescription(
            name: "Subscription",
            attributes: [AttributeDescription(name: "feedLink", type: .string, defaultValue: .string(""))],
            identity: ["feedLink"]
        ),
    ])
    let cloud = CloudService(configuration: CloudConfiguration(accounts: ["alice"]))
    let engine: SDSEngine
    /// The disk as the engine's writes left it (and the device's conditions).
    var context: SDSContext
    var writes = 0
    var probes: [String] = []
    var completed: [WaiterID] = []
    var failed: [(WaiterID, String)] = []
    var rules: [String] = []
    /// True when one `deliver` ran into its step limit (an engine that never waits).
    var exhaustedSteps = false
    /// Hands events over a lent disk (`handleLent`, as a device does) instead of a copy.
    var lendsTheDisk = false
    /// Every event's effects began with the write of the whole state.
    var everyEventWroteFirst = true

    init(lendsTheDisk: Bool = false) {
        self.lendsTheDisk = lendsTheDisk
        engine = SDSEngine(schema: schema)
        context = EngineContext(
            now: .zero, device: "phone", account: "alice", accountStatus: .available,
            isOnline: true, store: Store(schema: schema), syncData: SDSSyncData(),
            names: RandomStreams(seed: 1).stream("names/phone")
        )
    }

    /// Delivers an event and everything that follows from it, answering requests at once.
    func deliver(_ event: EngineEvent) {
        var queue = [event]
        var steps = 0
        while !queue.isEmpty {
            steps += 1
            guard steps < 10_000 else {
                exhaustedSteps = true
                return
            }
            let next = queue.removeFirst()
            // The engine works on a copy; only its writes reach the disk.
            let effects: [EngineEffect]
            if lendsTheDisk {
                var conditions = DeviceConditions(
                    now: context.now, device: context.device, account: context.account,
                    accountStatus: context.accountStatus, isOnline: context.isOnline,
                    isDiskFull: context.isDiskFull)
                var names = context.names
                var store = context.store
                var box = SyncDataBox(context.syncData)
                var none = 0
                var spare: [EngineEffect] = []
                effects = engine.handleLent(
                    next, conditions: &conditions, disk: &store, syncData: &box,
                    names: &names, resumingInLine: &none, reusing: &spare)
                context.names = names
            } else {
                var working = context
                effects = engine.handle(next, context: &working)
                context.names = working.names
            }
            if case .write(let write)? = effects.first, write.store != nil, write.syncData != nil {
            } else {
                everyEventWroteFirst = false
            }
            for effect in effects {
                switch effect {
                case .write(let write):
                    writes += 1
                    if let store = write.store { context.store = store }
                    if let box = write.syncData {
                        context.syncData = box.contents(as: SDSSyncData.self) ?? SDSSyncData()
                    }
                case .send(let id, let request):
                    let client = CloudClient(device: "phone", account: "alice")
                    queue.append(.response(id, cloud.handle(request, from: client, now: context.now).response))
                case .probe(let name, let ticket):
                    probes.append(name)
                    queue.append(.resume(ticket))
                case .completed(let waiter):
                    completed.append(waiter)
                case .failed(let waiter, let reason):
                    failed.append((waiter, reason))
                case .trace(_, _, let fired):
                    rules += fired
                case .setTimer, .cancelTimer:
                    break
                }
            }
        }
    }

    func update(_ id: ModelID, _ values: [String: AttributeValue]) throws {
        var transaction = Transaction()
        transaction.append(.update(id, values: values.mapValues { .attribute($0) }))
        try context.store.save(transaction, author: "app")
        deliver(.storeSaved)
    }

    func insert(_ entity: String, _ values: [String: AttributeValue]) throws -> ModelID {
        let id = context.store.makeModelID()
        var transaction = Transaction()
        transaction.append(.insert(id, entity: entity, values: values.mapValues { .attribute($0) }))
        try context.store.save(transaction, author: "app")
        deliver(.storeSaved)
        return id
    }
}

@Suite struct SDSEngineTests {
    @Test("an event over a lent disk (handleLent) does what it does over a copy")
    func lentDiskMatchesTheCopiedOne() throws {
        var results: [(store: Store, syncData: SDSSyncData, names: Xoshiro256StarStar,
                       probes: [String], rules: [String], writes: Int)] = []
        for lends in [false, true] {
            let driver = Driver(lendsTheDisk: lends)
            driver.deliver(.launch(waiter: WaiterID(1)))
            let note = try driver.insert("Note", ["title": .string("A")])
            driver.deliver(.timer(.debounce))
            try driver.update(note, ["body": .string("more")])
            _ = try driver.insert("Subscription", ["feedLink": .string("https://example.org/rss")])
            driver.deliver(.timer(.debounce))
            driver.deliver(.push)
            driver.deliver(.appCall(.syncNow, waiter: WaiterID(2)))
            #expect(driver.everyEventWroteFirst)
            #expect(driver.context.syncData.pendingCount == 0)
            #expect(driver.completed == [WaiterID(1), WaiterID(2)])
            results.append((driver.context.store, driver.context.syncData, driver.context.names,
                            driver.probes, driver.rules, driver.writes))
        }
        let (copied, lent) = (results[0], results[1])
        #expect(lent.store == copied.store)
        #expect(lent.syncData == copied.syncData)
        #expect(lent.names == copied.names)
        #expect(lent.probes == copied.probes)
        #expect(lent.rules == copied.rules)
        #expect(lent.writes == copied.writes)
        #expect(copied.probes.contains("upload.sent") && copied.rules.contains("ID-1"))
    }

    @Test func launchPassesTheProbePointsInContractOrder() {
        let driver = Driver()
        driver.deliver(.launch(waiter: WaiterID(1)))
        #expect(driver.probes == [
            "sync.start", "download.start", "download.page.fetched", "download.page.resolved",
            "download.page.stored",
            "download.page.saved", "download.done", "upload.start", "upload.done", "sync.done",
        ])
        #expect(driver.completed == [WaiterID(1)])
        #expect(driver.context.syncData.hasDownloadedOnce)
        #expect(driver.engine.state == .idle)
    }

    @Test func aSaveIsRecordedPerKeyAndUploadedByTheNextSync() throws {
        let driver = Driver()
        driver.deliver(.launch(waiter: nil))
        let id = try driver.insert("Note", ["title": .string("A")])
        #expect(driver.context.syncData.pending[id]?.isInsert == true)
        #expect(driver.context.syncData.pending[id]?.sortedKeys == ["body", "title"])
        #expect(driver.rules.contains("SYNC-1"))
        driver.deliver(.timer(.debounce))
        #expect(driver.context.syncData.pendingCount == 0)
        let name = try #require(driver.context.syncData.recordName(of: id))
        let record = try #require(driver.cloud.record(named: name, in: driver.cloud.appZone(of: "alice")))
        #expect(record.fields == ["title": .string("A")], "CFG-3: the empty body is left out")
        #expect(driver.probes.filter { $0 == "upload.sent" }.count == 1)
    }

    @Test func identityEntitiesAreNamedByTheirValues() throws {
        let driver = Driver()
        driver.deliver(.launch(waiter: nil))
        let id = try driver.insert("Subscription", ["feedLink": .string("https://example.org/rss")])
        #expect(driver.context.syncData.recordName(of: id)
            == "Subscription.b16f442328ed90c9678d78fb4c0c593fee1ebb238c572e98385d17ae66311048")
        #expect(driver.rules.contains("ID-1"))
    }

    @Test func randomRecordNamesAreUUIDShapedAndDeterministic() throws {
        let first = Driver()
        let second = Driver()
        let a = try first.insert("Note", [:])
        let b = try second.insert("Note", [:])
        let name = try #require(first.context.syncData.recordName(of: a))
        #expect(name == second.context.syncData.recordName(of: b))
        #expect(name.count == 36)
        #expect(name.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
    }

    @Test func offlineSyncWaitsForTheNetwork() {
        let driver = Driver()
        driver.context.isOnline = false
        driver.deliver(.launch(waiter: WaiterID(7)))
        #expect(driver.completed == [WaiterID(7)])
        #expect(driver.engine.state == EngineState("waiting", "network"))
        driver.context.isOnline = true
        driver.deliver(.networkChanged(online: true))
        #expect(driver.engine.state == .idle)
        #expect(driver.probes.last == "sync.done")
    }

    /// Issue 11, item 4: the zone is gone and change feeds fail with a retry-after. The
    /// upload finds the zone missing and wants another synchronization; it must wait for the
    /// retry (ERR-3) instead of starting the instant this one ends, forever.
    @Test func aWantedSyncWaitsForTheScheduledRetry() throws {
        let driver = Driver()
        driver.deliver(.launch(waiter: nil))
        let id = try driver.insert("Note", ["title": .string("A")])
        driver.deliver(.timer(.debounce))
        _ = driver.cloud.deleteZone(account: "alice", now: driver.context.now)
        driver.cloud.failDownloads(account: "alice", until: .hours(1))
        try driver.update(id, ["title": .string("B")])
        driver.rules = []
        driver.deliver(.timer(.debounce))
        #expect(!driver.exhaustedSteps, "the engine kept starting synchronizations")
        #expect(driver.probes.filter { $0 == "sync.start" }.count == 3)
        #expect(driver.rules.contains("SYNC-6"))
        #expect(driver.rules.contains("ERR-1"))
        #expect(driver.rules.filter { $0 == "ERR-3" }.count == 2, "retry scheduled, sync deferred")
        #expect(driver.engine.state == EngineState("waiting", "retryAfter"))
        driver.context.now = .hours(1)
        driver.deliver(.timer(.retry))
        #expect(driver.context.syncData.pendingCount == 0)
        #expect(driver.engine.state == .idle)
    }

    /// Issue 11, item 5: an `initializeSchema()` that cannot run or fails ends its wait.
    @Test func initializeSchemaThatCannotRunFailsItsWaiter() {
        let driver = Driver()
        driver.context.account = nil
        driver.deliver(.launch(waiter: nil))
        driver.deliver(.appCall(.initializeSchema, waiter: WaiterID(3)))
        #expect(driver.failed.map(\.0) == [WaiterID(3)])
        #expect(driver.failed.first?.1 == "synchronizing cannot start (signed out)")
    }

    @Test func initializeSchemaDuringAnOutageFailsOnceAndIsNotRetriedBehindTheCaller() {
        let driver = Driver()
        driver.deliver(.launch(waiter: nil))
        driver.cloud.outage(until: .seconds(10))
        driver.deliver(.appCall(.initializeSchema, waiter: WaiterID(4)))
        #expect(driver.failed.map(\.0) == [WaiterID(4)])
        #expect(driver.failed.first?.1.hasPrefix("serviceUnavailable") == true)
        #expect(!driver.completed.contains(WaiterID(4)))
        driver.context.now = .seconds(10)
        driver.deliver(.timer(.retry))
        #expect(!driver.rules.contains("SCHEMA-3"), "the retry is a plain sync")
        driver.deliver(.appCall(.initializeSchema, waiter: WaiterID(5)))
        #expect(driver.completed.contains(WaiterID(5)))
        #expect(driver.rules.contains("SCHEMA-3"))
    }

    /// An attempt carried by a run that checks the account first (none was checked since
    /// the launch) is made once the account is known, not dropped.
    @Test func initializeSchemaInARunThatChecksTheAccountFirst() {
        let driver = Driver()
        driver.context.account = nil
        driver.deliver(.launch(waiter: nil))
        #expect(!driver.engine.hasCheckedAccount)
        driver.context.account = "alice"
        driver.deliver(.appCall(.initializeSchema, waiter: WaiterID(6)))
        #expect(driver.engine.hasCheckedAccount)
        #expect(driver.failed.isEmpty, "\(driver.failed)")
        #expect(driver.completed.contains(WaiterID(6)))
        #expect(driver.rules.contains("SCHEMA-3"))
    }

    @Test func everyEventWritesTheDiskOnceBeforeAnyOtherEffect() {
        let engine = SDSEngine(schema: Driver().schema)
        var context = Driver().context
        let effects = engine.handle(.launch(waiter: nil), context: &context)
        guard case .write(let write)? = effects.first else {
            Issue.record("the first effect is not a write")
            return
        }
        #expect(write.store != nil && write.syncData != nil, "store and sync data together")
        let later = effects.dropFirst().filter { if case .write = $0 { return true }; return false }
        #expect(later.isEmpty)
    }

    @Test func changesNotWrittenNeverReachTheDisk() throws {
        let driver = Driver()
        driver.deliver(.launch(waiter: nil))
        let id = try driver.insert("Note", ["title": .string("A")])
        // The disk holds the pending change only because the engine wrote it.
        #expect(driver.context.syncData.pending[id] != nil)
        #expect(driver.writes > 1)
    }
}
