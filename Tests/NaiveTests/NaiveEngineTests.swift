import CloudSim
import Kernel
import LocalStore
import Naive
import SyncContract
import Testing

/// The naive engine driven directly against the simulated cloud (NaiveRig): the article's
/// calls in the order docs/NAIVE.md gives, the records it builds, its retries and what a
/// kill forgets.
@Suite struct NaiveEngineTests {
    func kind(_ request: CloudRequest) -> String { request.kind }

    @Test func aLaunchSetsUpTheZoneAndSubscriptionThenDownloadsAndEndsAfterTheZoneFetch() {
        let rig = NaiveRig()
        rig.deliver(.launch(waiter: WaiterID(1)))
        #expect(rig.requests.map(kind) == [
            "fetchZone", "modifyZones", "fetchSubscription", "saveQuerySubscription",
            "fetchDatabaseChanges", "fetchZoneChanges",
        ])
        #expect(rig.completed == [WaiterID(1)])
        #expect(rig.data.databaseToken != nil)
        #expect(rig.cloud.querySubscriptions(of: "alice").map(\.id) == ["note-changes-subscription"])
        #expect(rig.probes == [
            "sync.start", "download.start", "naive.db-token.saved", "naive.zone-fetch.start",
            "download.page.fetched", "download.page.stored", "download.page.saved",
            "download.done", "upload.start", "upload.done", "sync.done",
        ])
        // The script's `launch` ends with the operation, after its `sync.done` (NAIVE-7).
        #expect(rig.effectLog.suffix(2) == ["probe", "completed"])
        #expect(rig.engine.state == .idle)
        #expect(rig.observation.hasDownloadedOnce)
        // A second launch finds both (NAIVE-2, NAIVE-3) and creates nothing; the saved token
        // says nothing changed since, so no zone is fetched (NAIVE-7).
        rig.requests = []
        rig.relaunch()
        #expect(rig.requests.map(kind) == ["fetchZone", "fetchSubscription", "fetchDatabaseChanges"])
    }

    @Test func aSaveIsOneFreshAllKeysRecordPerModelSentAtOnce() throws {
        let rig = NaiveRig()
        rig.deliver(.launch(waiter: nil))
        rig.requests = []
        rig.effectLog = []
        let first = rig.store.makeModelID()
        let second = rig.store.makeModelID()
        try rig.save(
            .insert(first, entity: "Note", values: ["title": .attribute(.string("A")),
                                                   "body": .attribute(.string("a"))]),
            .insert(second, entity: "Note", values: ["title": .attribute(.string("B"))]))
        #expect(rig.modifies.count == 2)
        let save = try #require(rig.modifies.first)
        #expect(save.policy == .allKeys)
        #expect(save.saves.first?.record.changeTag == nil)
        #expect(save.saves.first?.record.fields == ["title": .string("A"), "body": .string("a")])
        #expect(save.saves.first?.changedKeys == ["body", "title"])
        // The names and the ledger reach the disk before the first probe point.
        #expect(rig.effectLog.first == "write")
        let name = try #require(rig.observation.recordName(of: first))
        #expect(name.hasPrefix("Note_") && name.count == "Note_".count + 36)
        #expect(rig.observation.model(forRecord: name) == first)
        #expect(rig.data.unsentOperations.isEmpty)
        #expect(rig.cloud.record(named: name, in: ZoneID(owner: "alice", name: "Notes")) != nil)
    }

    @Test func anUpdateSendsEveryFieldButOnlyTheEditedKeysAsChanged() throws {
        let rig = NaiveRig()
        rig.deliver(.launch(waiter: nil))
        let id = try rig.insertNote(title: "A", body: "a")
        try rig.save(.update(id, values: ["body": .attribute(nil)]))
        let update = try #require(rig.modifies.last?.saves.first)
        #expect(update.record.fields == ["title": .string("A")])
        #expect(update.changedKeys == ["body"])
        let name = try #require(rig.observation.recordName(of: id))
        let stored = rig.cloud.record(named: name, in: ZoneID(owner: "alice", name: "Notes"))
        #expect(stored?.fields == ["title": .string("A")])
        try rig.save(.delete(id))
        #expect(rig.modifies.last?.deletes == [name])
        #expect(rig.observation.recordName(of: id) == nil)
        #expect(rig.cloud.record(named: name, in: ZoneID(owner: "alice", name: "Notes")) == nil)
    }

    @Test func aThrottledSaveIsRetriedWithTheSameRequestAfterTheRetryAfter() throws {
        let rig = NaiveRig()
        rig.deliver(.launch(waiter: nil))
        rig.cloud.throttle(account: "alice", until: rig.now + .seconds(5))
        _ = try rig.insertNote(title: "A")
        let timer = EngineTimer("retry.3")
        #expect(rig.timers[timer] == rig.now + .seconds(5))
        #expect(rig.engine.state == EngineState("waiting", "retryAfter"))
        #expect(rig.engine.isIdle(now: rig.now))
        #expect(rig.observation.pendingCount == 1)
        // The retry waits in memory; the ledger remembers it for NAIVEW-2's trace.
        #expect(rig.data.unsentOperations.map(\.kind) == ["save"])
        let sent = rig.requests.last
        rig.fire(timer)
        #expect(rig.requests.last == sent)
        #expect(rig.observation.pendingCount == 0)
        #expect(rig.fired("NAIVE-6"))
        #expect(!rig.fired("NAIVEW-4"))
    }

    @Test func aKillForgetsTheWaitingRetryAndTheNextLaunchNamesIt() throws {
        let rig = NaiveRig()
        rig.deliver(.launch(waiter: nil))
        rig.cloud.throttle(account: "alice", until: rig.now + .seconds(5))
        _ = try rig.insertNote(title: "A")
        rig.traces = []
        rig.now = rig.now + .seconds(10)
        rig.relaunch()
        #expect(rig.fired("NAIVEW-2"))
        #expect(rig.observation.pendingCount == 0)
        #expect(rig.data.unsentOperations.isEmpty)
        #expect(rig.cloud.records(in: ZoneID(owner: "alice", name: "Notes")).isEmpty)
    }

    @Test func otherErrorsAreDroppedAndNeverChangeTheState() throws {
        let rig = NaiveRig()
        rig.deliver(.launch(waiter: nil))
        rig.cloud.setQuotaFull(account: "alice", true)
        _ = try rig.insertNote(title: "A")
        #expect(rig.fired("NAIVEW-9"))
        #expect(rig.engine.state == .idle)
        #expect(rig.timers.isEmpty)
        #expect(rig.observation.pendingCount == 0)
        rig.isOnline = false
        let id = try rig.insertNote(title: "B")
        #expect(rig.fired("NAIVEW-3"))
        #expect(rig.observation.recordName(of: id) != nil)
    }

    @Test func aDownloadOverwritesEveryAttributeAndIsNotUploadedAgain() throws {
        let cloud = CloudService(configuration: CloudConfiguration(
            accounts: ["alice"], appZoneName: NaiveEngine.zoneName))
        let phone = NaiveRig(cloud: cloud)
        phone.deliver(.launch(waiter: nil))
        let id = try phone.insertNote(title: "A", body: "a")
        let laptop = NaiveRig(cloud: cloud)
        laptop.deliver(.launch(waiter: nil))
        let models = laptop.store.models(of: "Note")
        #expect(models.map { $0.values["title"] } == [.string("A")])
        #expect(laptop.modifies.isEmpty)
        try phone.save(.update(id, values: ["body": .attribute(nil)]))
        laptop.deliver(.push)
        #expect(laptop.store.models(of: "Note").map { $0.values["body"] ?? nil } == [nil])
        #expect(laptop.modifies.isEmpty)
        #expect(laptop.fired("NAIVE-8") && laptop.fired("NAIVE-14"))
    }
}

/// `init?(record:)` and `toCKRecord()` as docs/NAIVE.md completes them (NAIVE-1, NAIVE-8).
@Suite struct NaiveRecordTests {
    static let entity = EntityDescription(name: "Note", attributes: [
        AttributeDescription(name: "title", type: .string),
        AttributeDescription(name: "pinned", type: .bool, defaultValue: .bool(false)),
        AttributeDescription(name: "body", type: .string, isOptional: true),
    ])

    func record(_ fields: SortedMap<String, CloudValue>) -> CloudRecord {
        CloudRecord(recordType: "Note", recordName: "Note_0A1B2C3D-0000-4000-8000-00000000000F",
                    zone: ZoneID(owner: "alice", name: "Notes"), fields: fields)
    }

    /// Runs a download of one record into an empty store and returns what it stored.
    func download(_ record: CloudRecord) -> [Model] {
        let cloud = CloudService(configuration: CloudConfiguration(
            accounts: ["alice"], appZoneName: NaiveEngine.zoneName))
        let schema = Schema(entities: [Self.entity])
        let rig = NaiveRig(schema: schema, cloud: cloud)
        rig.deliver(.launch(waiter: nil))
        _ = cloud.handle(.modifyRecords(scope: .privateDatabase, zone: record.zone,
                                        saves: [RecordSave(record: record,
                                                           changedKeys: record.fields.keys.sorted())],
                                        deletes: [], policy: .allKeys, atomic: false),
                         from: CloudClient(device: "laptop", account: "alice"), now: rig.now)
        rig.deliver(.push)
        return rig.store.models(of: "Note")
    }

    @Test func aRecordWithoutARequiredAttributeIsSkipped() {
        #expect(download(record(["body": .string("b")])).isEmpty)
        // A field of the wrong type counts as missing (`as? String` fails).
        #expect(download(record(["title": .int(3)])).isEmpty)
    }

    @Test func aMissingDefaultedAttributeTakesItsDefaultAndAMissingOptionalOneIsNil() {
        let models = download(record(["title": .string("A")]))
        #expect(models.count == 1)
        #expect(models.first?.values["pinned"] == .bool(false))
        #expect(models.first?.values["body"] == nil)
        #expect(download(record(["title": .string("A"), "pinned": .int(1)])).first?.values["pinned"]
            == .bool(true))
    }
}
