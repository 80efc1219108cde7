import CloudSim
import History
import Kernel
import LocalStore
import SyncContract
import Testing

/// The history engine handed one event in a known state: the effects it returns, exactly and
/// in order (event in, effects out). `HistoryBench` brings the engine to that state.
@Suite struct HistoryEngineEventTests {
    /// HIS-42: a silent push before `enable()` is ignored: no debounce window opens.
    @Test func aSilentPushBeforeEnableIsIgnored() {
        let bench = HistoryBench()
        #expect(bench.handle(.push) == [
            .trace("push.ignored", [TraceField("reason", "disabled")], ["HIS-42"]),
        ])
    }

    /// HIS-13: a silent push on an enabled engine (re)starts the 1 s debounce window.
    @Test func aSilentPushStartsTheDebounceWindow() {
        let bench = HistoryBench()
        bench.launch()
        #expect(bench.handle(.push) == [
            .trace("push.debounced", [TraceField("window", 1_000_000)], ["HIS-13"]),
            .setTimer("debounce", .seconds(1)),
        ])
    }

    /// HIS-34: nothing observes the account; its change is only traced.
    @Test func anAccountChangeIsIgnored() {
        let bench = HistoryBench()
        bench.launch()
        #expect(bench.handle(.accountChanged) == [
            .trace("account.change-ignored", [TraceField("account", "alice")], ["HIS-34"]),
        ])
    }

    /// HIS-10: a save by the app starts a push operation, which passes `sync.start` first.
    @Test func anAppSaveStartsAPush() throws {
        let bench = HistoryBench()
        bench.launch()
        try bench.save(title: "A")
        #expect(bench.handle(.storeSaved) == [
            .trace("save.observed", [TraceField("position", 1)], ["HIS-10"]),
            .trace("operation.start", [
                TraceField("operation", 2),
                TraceField("trigger", "save"),
                TraceField("phases", .list(["push"])),
            ], []),
            .probe("sync.start"),
        ])
    }

    /// HIS-5: a save by the sync author is the engine's own write: no push (the loop guard).
    @Test func aSaveByTheSyncAuthorIsNotPushed() throws {
        let bench = HistoryBench()
        bench.launch()
        try bench.save(title: "A", author: HistoryEngine.author)
        #expect(bench.handle(.storeSaved) == [])
    }

    /// HIS-11: a save while a push runs sets `pushPending` instead of a second push.
    @Test func aSaveDuringAPushIsDeduplicated() throws {
        let bench = HistoryBench()
        bench.launch()
        try bench.save(title: "A")
        bench.handle(.storeSaved)
        try bench.save(title: "B")
        #expect(bench.handle(.storeSaved) == [
            .trace("save.observed", [TraceField("position", 2)], ["HIS-10"]),
            .trace("push.deduplicated", [
                TraceField("trigger", "save"),
                TraceField("during", "a push"),
            ], ["HIS-11"]),
        ])
    }

    /// HIS-31, HIS-14: offline is only noted; back online, the engine pushes (and only pushes).
    @Test func backOnlineTheEnginePushes() {
        let bench = HistoryBench()
        bench.launch()
        #expect(bench.handle(.networkChanged(online: false)) == [
            .trace("network.offline", [], ["HIS-31"]),
        ])
        #expect(bench.handle(.networkChanged(online: true)) == [
            .trace("network.online", [TraceField("note", "one push; no pull")], ["HIS-14"]),
            .trace("operation.start", [
                TraceField("operation", 2),
                TraceField("trigger", "reconnect"),
                TraceField("phases", .list(["push"])),
            ], []),
            .probe("sync.start"),
        ])
        // Online while never offline: nothing to do.
        #expect(bench.handle(.networkChanged(online: true)) == [])
    }

    /// HIS-29: a throttled push request stops the push and pauses for the retry-after.
    @Test func aThrottledPushBacksOffForTheRetryAfter() throws {
        let bench = HistoryBench()
        bench.launch()
        let request = try bench.pushWaitingForItsAnswer(title: "A")
        let throttled = CloudError(.requestRateLimited, message: "slow down",
                                   retryAfter: .seconds(7))
        #expect(bench.handle(.response(request, .failure(throttled))) == [
            .trace("push.failed", [
                TraceField("request", "inserts"),
                TraceField("error", "requestRateLimited"),
                TraceField("syncError", "rateLimited"),
                TraceField("note", "the push stops; the token stays staged"),
            ], ["HIS-17", "HIS-18", "HIS-33"]),
            .trace("recovery", [
                TraceField("error", "requestRateLimited"),
                TraceField("syncError", "rateLimited"),
                TraceField("action", "backoff"),
            ], ["HIS-29", "HIS-33"]),
            .trace("backoff.start", [
                TraceField("reason", "rateLimited"),
                TraceField("pause", 7_000_000),
                TraceField("retryAfter", 7_000_000),
            ], ["HIS-29"]),
            .setTimer("backoff", .seconds(7)),
            .probe("upload.done"),
        ])
    }

    /// HIS-29: the end of the backoff pushes; its operation passes `history.backoff.end`
    /// right after `sync.start`.
    @Test func theEndOfABackoffPushes() throws {
        let bench = HistoryBench()
        bench.launch()
        let request = try bench.pushWaitingForItsAnswer(title: "A")
        bench.handle(.response(request, .failure(CloudError(.requestRateLimited))))
        bench.settle()
        #expect(bench.handle(.timer(.init("backoff"))) == [
            .trace("backoff.end", [TraceField("reason", "rateLimited")], ["HIS-29", "HIS-29"]),
            .trace("operation.start", [
                TraceField("operation", 3),
                TraceField("trigger", "backoff-end"),
                TraceField("phases", .list(["push"])),
            ], []),
            .probe("sync.start"),
        ])
    }

    /// HIS-21, HIS-22: a fetched page is stored in one save as the sync author, before the
    /// zone token (HIS-22 step 3).
    @Test func aFetchedPageIsStoredInOneSave() throws {
        let bench = HistoryBench()
        bench.launch()
        bench.cloudHasNote("remote-1", title: "From the tablet")
        bench.handle(.push)
        bench.handle(.timer(.init("debounce")))
        bench.run(untilProbe: "download.page.fetched")
        #expect(bench.pending == [.resume(.sole)])
        bench.pending = []
        #expect(bench.handle(.resume(.sole)) == [
            .write(store: true, syncData: true),
            .trace("pull.page.stored", [
                TraceField("zone", .string(HistoryBench.zone.description)),
                TraceField("inserted", 1),
                TraceField("updated", 0),
                TraceField("unchanged", 0),
                TraceField("deleted", 0),
            ], ["HIS-21", "HIS-22"]),
            .probe("download.page.stored"),
        ])
        let notes = bench.store.models(of: "Note")
        #expect(notes.map { $0.values["title"] } == [.string("From the tablet")])
        let saved = bench.store.history(after: 0).map(\.author)
        #expect(saved == [HistoryEngine.author])
    }
}

/// An effect as a value a test compares: the request, timer, probe, trace or write.
enum HistoryEffect: Equatable {
    case send(CloudRequest)
    case setTimer(String, SimTime)
    case cancelTimer(String)
    case probe(String)
    case trace(String, [TraceField], [String])
    case completed(WaiterID)
    case failed(WaiterID)
    case write(store: Bool, syncData: Bool)

    init(_ effect: EngineEffect) {
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

/// A one-device bench for the history engine: `handle` hands it one event and carries out
/// only the effects' writes; each request's answer (from a real `CloudService`, at once)
/// and each probe point's resume wait in `pending` until the test delivers them.
final class HistoryBench {
    static let schema = Schema(entities: [
        EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "title", type: .string),
        ]),
    ])
    static let zone = ZoneID(owner: "alice", name: HistoryEngine.zoneName)

    let cloud = CloudService(configuration: CloudConfiguration(
        accounts: ["alice"], appZoneName: HistoryEngine.zoneName))
    let engine = HistoryEngine(schema: HistoryBench.schema)
    var store = Store(schema: HistoryBench.schema)
    var syncData = SyncDataBox()
    var names = Xoshiro256StarStar(seed: 7)
    let now = SimTime.seconds(1)
    var isOnline = true
    /// The events the effects so far call for, not yet delivered, in order.
    var pending: [EngineEvent] = []
    /// The last request sent.
    var lastRequest: RequestID?

    var client: CloudClient { CloudClient(device: "phone", account: "alice") }

    /// Hands the engine one event; returns its effects.
    @discardableResult
    func handle(_ event: EngineEvent) -> [HistoryEffect] {
        let conditions = DeviceConditions(
            now: now, device: "phone", account: "alice", accountStatus: .available,
            isOnline: isOnline, isDiskFull: false)
        let effects = engine.handle(event, conditions: conditions, store: store,
                                    syncData: syncData, names: &names)
        for effect in effects {
            switch effect {
            case .send(let id, let request):
                lastRequest = id
                pending.append(.response(id, cloud.handle(request, from: client, now: now)
                    .response))
            case .probe(_, let ticket):
                pending.append(.resume(ticket))
            case .write(let write):
                if let written = write.store { store = written }
                if let written = write.syncData { syncData = written }
            default:
                break
            }
        }
        return effects.map(HistoryEffect.init)
    }

    /// Delivers the pending events, and those they call for, until none is left.
    func settle() {
        var steps = 0
        while !pending.isEmpty {
            steps += 1
            precondition(steps < 10_000, "the engine does not come to rest")
            handle(pending.removeFirst())
        }
    }

    /// Delivers pending events until one passes `probe`; what it calls for stays pending.
    func run(untilProbe probe: String) {
        var steps = 0
        while !pending.isEmpty {
            steps += 1
            precondition(steps < 10_000, "the engine does not come to rest")
            if handle(pending.removeFirst()).contains(.probe(probe)) { return }
        }
        preconditionFailure("\(probe) was never passed")
    }

    /// `enable()` at launch, run to its end: setup, a pull and a push (HIS-9).
    func launch() {
        handle(.launch(waiter: nil))
        settle()
    }

    /// The app saves a note (or `author` writes one) and does not tell the engine yet.
    func save(title: String, author: String = "app") throws {
        var transaction = Transaction()
        transaction.append(.insert(store.makeModelID(), entity: "Note",
                                   values: ["title": .attribute(.string(title))]))
        try store.save(transaction, author: author)
    }

    /// A push of a new note whose request left and whose answer has not come: returns the
    /// request (the cloud's own answer to it is dropped).
    func pushWaitingForItsAnswer(title: String) throws -> RequestID {
        try save(title: title)
        handle(.storeSaved)
        run(untilProbe: "upload.sent")
        let request = try #require(lastRequest)
        pending = []
        handle(.resume(.sole))
        precondition(pending.isEmpty, "the push should wait for its answer")
        return request
    }

    /// Another device of the account saved a note into the engine's zone.
    func cloudHasNote(_ recordName: String, title: String) {
        let record = CloudRecord(recordType: "Note", recordName: recordName, zone: Self.zone,
                                 fields: ["title": .string(title)])
        let outcome = cloud.handle(
            .modifyRecords(scope: .privateDatabase, zone: Self.zone,
                           saves: [RecordSave(record: record, changedKeys: ["title"])],
                           deletes: [], policy: .allKeys, atomic: false),
            from: CloudClient(device: "tablet", account: "alice"), now: now)
        guard case .recordsModified(let results) = outcome.response, case .saved? = results.first
        else { preconditionFailure("the tablet's save failed: \(outcome.response)") }
    }
}
