import CKSyncEngineSim
import CloudSim
import Foundation
import Kernel
import SyncContract
import Testing

/// The simulated CKSyncEngine against a real CloudService, driven as a device drives it.
@Suite struct CKSyncEngineSimTests {
    /// A device with zones and records ready to send (pending and provided).
    func prepare(_ world: TestWorld, _ device: TestDevice, zones: [String: [String]]) {
        for zone in zones.keys.sorted() {
            world.edit(device) { $0.add(pendingDatabaseChanges: [.saveZone(device.zone(zone))]) }
            for name in zones[zone] ?? [] {
                device.makeRecord(name, in: zone, title: name.uppercased())
                world.edit(device) { $0.add(pendingRecordZoneChanges: [.saveRecord(device.recordID(name, in: zone))]) }
            }
        }
    }

    @Test func aSendDeliversApplesEventsInOrder() {
        let world = TestWorld()
        let phone = world.device("phone")
        prepare(world, phone, zones: ["Z1": ["n1", "n2"]])
        world.send(phone)
        #expect(phone.recorder.flow == [
            "accountChange", "willSendChanges", "sentDatabaseChanges", "sentRecordZoneChanges",
            "didSendChanges",
        ])
        // Each batch's stateUpdate follows the event it covers.
        let log = phone.recorder.log
        for (index, name) in log.enumerated() where name.hasPrefix("sent") {
            #expect(log[index + 1] == "stateUpdate", "\(log)")
        }
        #expect(world.cloud.record(named: "n1", in: phone.zone("Z1"))?.fields["title"] == .string("N1"))
        #expect(world.cloud.records(in: phone.zone("Z1")).count == 2)
        #expect(phone.engine.state.pendingRecordZoneChanges.isEmpty)
        #expect(phone.engine.state.pendingDatabaseChanges.isEmpty)
        let sent = phone.recorder.sentRecordZoneChanges
        #expect(sent.count == 1)
        #expect(sent.first?.savedRecords.map(\.recordName) == ["n1", "n2"])
        #expect(sent.first?.savedRecords.allSatisfy { $0.changeTag != nil } == true)
    }

    @Test func aFetchDeliversApplesEventsInOrderPerZone() {
        let world = TestWorld()
        let phone = world.device("phone")
        let laptop = world.device("laptop")
        prepare(world, phone, zones: ["Z1": ["a1", "a2"], "Z2": ["b1"]])
        world.send(phone)
        world.fetch(laptop)
        #expect(laptop.recorder.flow == [
            "accountChange", "willFetchChanges", "fetchedDatabaseChanges",
            "willFetchRecordZoneChanges(Z1)", "fetchedRecordZoneChanges", "didFetchRecordZoneChanges(Z1)",
            "willFetchRecordZoneChanges(Z2)", "fetchedRecordZoneChanges", "didFetchRecordZoneChanges(Z2)",
            "didFetchChanges",
        ])
        let log = laptop.recorder.log
        for (index, name) in log.enumerated() where name.hasPrefix("fetched") {
            #expect(log[index + 1] == "stateUpdate", "\(log)")
        }
        #expect(laptop.recorder.fetched.keys.sorted() == ["a1", "a2", "b1"])
        // Nothing new: only the will/did pair.
        laptop.recorder.clear()
        world.fetch(laptop)
        #expect(laptop.recorder.flow == ["willFetchChanges", "didFetchChanges"])
        // A deletion arrives as a deletion of its zone's fetch.
        world.edit(phone) { $0.add(pendingRecordZoneChanges: [.deleteRecord(phone.recordID("a2", in: "Z1"))]) }
        world.send(phone)
        laptop.recorder.clear()
        world.fetch(laptop)
        #expect(laptop.recorder.fetchedDeletions == ["a2"])
        #expect(laptop.recorder.flow == [
            "willFetchChanges", "fetchedDatabaseChanges", "willFetchRecordZoneChanges(Z1)",
            "fetchedRecordZoneChanges", "didFetchRecordZoneChanges(Z1)", "didFetchChanges",
        ])
    }

    /// An `async` handleEvent that has not returned yet: the delegate defers a page, the engine
    /// delivers nothing more (not even a coalesced stateUpdate that would persist the page's
    /// token) until the delegate completes it, then goes on in Apple's order.
    @Test func aDeferredPageHoldsTheFetchUntilTheDelegateCompletesIt() {
        let world = TestWorld()
        let phone = world.device("phone")
        let laptop = world.device("laptop")
        prepare(world, phone, zones: ["Z1": ["a1"], "Z2": ["b1"]])
        world.send(phone)
        var deferred = 0
        laptop.recorder.onEvent = { event, engine in
            if case .fetchedRecordZoneChanges = event, deferred == 0 {
                deferred += 1
                engine.deferEventCompletion()
            }
        }
        world.fetch(laptop)
        #expect(laptop.engine.isWaitingForDelegate)
        #expect(laptop.engine.isBusy)
        #expect(laptop.recorder.flow.last == "fetchedRecordZoneChanges")
        let stateUpdates = laptop.recorder.log.filter { $0 == "stateUpdate" }.count
        // The app changes the state meanwhile: its coalesced stateUpdate waits as well.
        world.edit(laptop) { $0.add(pendingRecordZoneChanges: [.saveRecord(laptop.recordID("l1", in: "Z1"))]) }
        world.run(until: world.now + .seconds(1))
        #expect(laptop.recorder.log.filter { $0 == "stateUpdate" }.count == stateUpdates)
        world.apply(laptop.engine.completeDeferredEvent(), on: laptop)
        world.run()
        #expect(!laptop.engine.isWaitingForDelegate)
        let flow = laptop.recorder.flow
        #expect(Array(flow.drop { $0 != "fetchedRecordZoneChanges" }) == [
            "fetchedRecordZoneChanges", "didFetchRecordZoneChanges(Z1)",
            "willFetchRecordZoneChanges(Z2)", "fetchedRecordZoneChanges", "didFetchRecordZoneChanges(Z2)",
            "didFetchChanges",
        ])
        let log = laptop.recorder.log
        let first = log.firstIndex(of: "fetchedRecordZoneChanges") ?? 0
        #expect(log[first + 1] == "stateUpdate", "\(log)")
        #expect(laptop.recorder.fetched.keys.sorted() == ["a1", "b1"])
    }

    /// A deferred willSendChanges: nothing leaves until the delegate completes it, and a change
    /// it adds meanwhile goes in the batch.
    @Test func aDeferredWillSendChangesBuildsTheBatchWhenCompleted() {
        let world = TestWorld()
        let phone = world.device("phone")
        prepare(world, phone, zones: ["Z1": ["n1"]])
        var deferred = false
        phone.recorder.onEvent = { event, engine in
            if case .willSendChanges = event, !deferred {
                deferred = true
                engine.deferEventCompletion()
            }
        }
        func modifications() -> Int {
            phone.requests.filter {
                switch $0.1 {
                case .modifyZones, .modifyRecords: return true
                default: return false
                }
            }.count
        }
        world.send(phone)
        #expect(phone.engine.isWaitingForDelegate)
        // The account check and the subscription ran before the event; nothing of the send.
        #expect(modifications() == 0)
        #expect(phone.recorder.flow.last == "willSendChanges")
        phone.makeRecord("n2", in: "Z1", title: "N2")
        world.edit(phone) { $0.add(pendingRecordZoneChanges: [.saveRecord(phone.recordID("n2", in: "Z1"))]) }
        world.apply(phone.engine.completeDeferredEvent(), on: phone)
        world.run()
        #expect(phone.recorder.flow == [
            "accountChange", "willSendChanges", "sentDatabaseChanges", "sentRecordZoneChanges",
            "didSendChanges",
        ])
        #expect(phone.recorder.sentRecordZoneChanges.first?.savedRecords.map(\.recordName) == ["n1", "n2"])
    }

    @Test func pendingChangesAreDeduplicatedAsApplesStateDoes() {
        let world = TestWorld()
        let phone = world.device("phone")
        let a = phone.recordID("a", in: "Z"), b = phone.recordID("b", in: "Z")
        world.edit(phone) { $0.add(pendingRecordZoneChanges: [.saveRecord(a), .saveRecord(b), .saveRecord(a)]) }
        #expect(phone.engine.state.pendingRecordZoneChanges == [.saveRecord(a), .saveRecord(b)])
        world.edit(phone) { $0.add(pendingRecordZoneChanges: [.deleteRecord(a)]) }
        #expect(phone.engine.state.pendingRecordZoneChanges == [.saveRecord(b), .deleteRecord(a)])
        world.edit(phone) { $0.add(pendingRecordZoneChanges: [.saveRecord(a)]) }
        #expect(phone.engine.state.pendingRecordZoneChanges == [.saveRecord(b), .saveRecord(a)])
        world.edit(phone) { $0.remove(pendingRecordZoneChanges: [.saveRecord(b)]) }
        #expect(phone.engine.state.pendingRecordZoneChanges == [.saveRecord(a)])
        let zone = phone.zone("Z")
        world.edit(phone) { $0.add(pendingDatabaseChanges: [.saveZone(zone), .saveZone(zone)]) }
        #expect(phone.engine.state.pendingDatabaseChanges == [.saveZone(zone)])
        world.edit(phone) { $0.add(pendingDatabaseChanges: [.deleteZone(zone)]) }
        #expect(phone.engine.state.pendingDatabaseChanges == [.deleteZone(zone)])
        world.edit(phone) { $0.add(pendingDatabaseChanges: [.saveZone(zone)]) }
        #expect(phone.engine.state.pendingDatabaseChanges == [.saveZone(zone)])
    }

    @Test func stateUpdatesOfTheAppsAdditionsAreCoalescedFor100ms() {
        let world = TestWorld()
        let phone = world.device("phone")
        let ids = ["a", "b", "c", "d"].map { phone.recordID($0, in: "Z") }
        world.edit(phone) { $0.add(pendingRecordZoneChanges: [.saveRecord(ids[0])]) }
        world.wait(.milliseconds(10))
        world.edit(phone) { $0.add(pendingRecordZoneChanges: [.saveRecord(ids[1])]) }
        world.wait(.milliseconds(50))
        world.edit(phone) { $0.add(pendingRecordZoneChanges: [.saveRecord(ids[2])]) }
        world.wait(.milliseconds(39))
        #expect(phone.recorder.log.isEmpty, "no stateUpdate before 100 ms: \(phone.recorder.log)")
        world.wait(.milliseconds(1))
        #expect(phone.recorder.log == ["stateUpdate"])
        world.edit(phone) { $0.add(pendingRecordZoneChanges: [.saveRecord(ids[3])]) }
        world.wait(.milliseconds(100))
        #expect(phone.recorder.log == ["stateUpdate", "stateUpdate"])
    }

    @Test func aKillBeforeTheCoalescedStateUpdateLosesTheAdditionAndTheSerializationRoundTrips() throws {
        let world = TestWorld()
        let phone = world.device("phone")
        let a = phone.recordID("a", in: "Z"), b = phone.recordID("b", in: "Z")
        world.edit(phone) { $0.add(pendingRecordZoneChanges: [.saveRecord(a)]) }
        world.wait(.milliseconds(100))
        world.edit(phone) { $0.add(pendingRecordZoneChanges: [.saveRecord(b)]) }
        world.wait(.milliseconds(50))
        // Killed 50 ms after adding b: the app never received a state with b.
        world.relaunch(phone)
        #expect(phone.engine.state.pendingRecordZoneChanges == [.saveRecord(a)])
        // The serialization is a Codable value: encoded and decoded, it restores the same state.
        let saved = try #require(phone.recorder.serialization)
        let decoded = try JSONDecoder().decode(
            CKSyncEngine.State.Serialization.self, from: JSONEncoder().encode(saved))
        #expect(decoded == saved)
    }

    /// A change named with the default owner while signed out (no owner here) and the same
    /// change named after signing in are one pending change, as they are one in Apple's
    /// engine; the save the cloud answers under the account settles it.
    @Test func aChangeNamedSignedOutAndAgainSignedInIsOneAndSettles() {
        let world = TestWorld()
        let phone = world.device("phone")
        phone.makeRecord("a", in: "Z", title: "milk")
        let ownerless = RecordID(recordName: "a", zoneID: ZoneID(owner: "", name: "Z"))
        // The app's provider gives the record of either name, in the signed-in account's zone.
        phone.recorder.records[ownerless] = phone.recorder.records[phone.recordID("a", in: "Z")]
        world.edit(phone) {
            $0.add(pendingDatabaseChanges: [.saveZone(ZoneID(owner: "", name: "Z"))])
            $0.add(pendingDatabaseChanges: [.saveZone(phone.zone("Z"))])
            $0.add(pendingRecordZoneChanges: [.saveRecord(ownerless)])
            $0.add(pendingRecordZoneChanges: [.saveRecord(phone.recordID("a", in: "Z"))])
        }
        #expect(phone.engine.state.pendingRecordZoneChanges == [.saveRecord(ownerless)])
        #expect(phone.engine.state.pendingDatabaseChanges.count == 1)
        world.send(phone)
        world.run()
        #expect(phone.engine.state.pendingRecordZoneChanges.isEmpty)
        #expect(phone.engine.state.pendingDatabaseChanges.isEmpty)
        world.edit(phone) { $0.add(pendingRecordZoneChanges: [.deleteRecord(ownerless)]) }
        world.edit(phone) {
            $0.remove(pendingRecordZoneChanges: [.deleteRecord(phone.recordID("a", in: "Z"))])
        }
        #expect(phone.engine.state.pendingRecordZoneChanges.isEmpty)
    }

    /// Tokens, zones and pending changes of both kinds all come back from the app's JSON, and
    /// JSON that is not a serialization is a decoding error, not a crash or an empty state.
    @Test func aSyncedSerializationRoundTripsThroughJSONAndGarbageIsRefused() throws {
        let world = TestWorld()
        let phone = world.device("phone")
        phone.makeRecord("a", in: "Z", title: "milk")
        world.edit(phone) {
            $0.add(pendingDatabaseChanges: [.saveZone(phone.zone("Z"))])
            $0.add(pendingRecordZoneChanges: [.saveRecord(phone.recordID("a", in: "Z"))])
        }
        world.send(phone)
        world.fetch(phone)
        world.run()
        world.edit(phone) {
            $0.add(pendingDatabaseChanges: [.deleteZone(phone.zone("Y"))])
            $0.add(pendingRecordZoneChanges: [.deleteRecord(phone.recordID("b:~1", in: "Z"))])
        }
        world.wait(.seconds(2))
        let saved = try #require(phone.recorder.serialization)
        let json = try JSONEncoder().encode(saved)
        #expect(try JSONDecoder().decode(CKSyncEngine.State.Serialization.self, from: json) == saved)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains("4:b:~1") && text.contains("1:Y") && text.contains("alice"))
        for garbage in [#""state-1""#, #""7:state-2""#, #"{"pending":[]}"#, "12"] {
            #expect(throws: DecodingError.self, "\(garbage)") {
                try JSONDecoder().decode(CKSyncEngine.State.Serialization.self,
                    from: Data(garbage.utf8))
            }
        }
    }

    @Test func aRelaunchedEngineResumesFromItsSerializationAndSendsByItself() {
        let world = TestWorld()
        let phone = world.device("phone", automaticallySync: true)
        world.wait(.seconds(2))  // the launch's automatic fetch: account, subscription, tokens
        #expect(phone.recorder.flow == ["accountChange", "willFetchChanges", "didFetchChanges"])
        prepare(world, phone, zones: ["Z1": ["n1"]])
        world.wait(.milliseconds(500))  // the stateUpdate at 100 ms; the send is due at 1 s
        #expect(world.cloud.records(in: phone.zone("Z1")).isEmpty)
        world.relaunch(phone)
        #expect(phone.engine.state.pendingRecordZoneChanges == [.saveRecord(phone.recordID("n1", in: "Z1"))])
        world.wait(.seconds(5))
        #expect(world.cloud.records(in: phone.zone("Z1")).map(\.recordName) == ["n1"])
        // Same user, tokens and subscription restored: no sign-in, no new subscription.
        #expect(!phone.recorder.flow.contains("accountChange"))
        #expect(phone.recorder.flow.contains("sentRecordZoneChanges"))
        let subscriptions = phone.requests.filter { if case .saveDatabaseSubscription = $0.1 { true } else { false } }
        #expect(subscriptions.count == 1)
    }

    @Test func aKillBetweenASendAndItsStateUpdateSendsTheRecordAgain() throws {
        let world = TestWorld()
        let phone = world.device("phone")
        prepare(world, phone, zones: ["Z1": ["n1"]])
        world.apply(phone.engine.sendChanges(), on: phone)
        world.run(stopWhenSent: "modifyRecords")
        // The save reached the cloud; the device dies before its answer and its stateUpdate.
        #expect(world.cloud.record(named: "n1", in: phone.zone("Z1")) != nil)
        world.relaunch(phone)
        #expect(phone.engine.state.pendingRecordZoneChanges == [.saveRecord(phone.recordID("n1", in: "Z1"))])
        #expect(phone.engine.state.pendingDatabaseChanges.isEmpty, "the zone's stateUpdate was delivered")
        world.send(phone)
        // As on a device: the same insert again, refused as a collision, handed to the app.
        let sent = try #require(phone.recorder.sentRecordZoneChanges.first)
        #expect(sent.failedRecordSaves.map(\.error.code) == [.serverRecordChanged])
        #expect(sent.failedRecordSaves.first?.error.serverRecord?.changeTag != nil)
        #expect(phone.engine.state.pendingRecordZoneChanges.isEmpty)
    }

    @Test func eachEventIsAProbePointBeforeTheDelegatesOwnEffects() {
        let world = TestWorld()
        let phone = world.device("phone")
        prepare(world, phone, zones: ["Z1": ["n1"]])
        // The delegate persists each stateUpdate with an effect of its own.
        phone.recorder.onEvent = { event, engine in
            if case .stateUpdate = event { engine.append([.trace(kind: "app.persisted", details: [], rules: [])]) }
        }
        var effects = phone.engine.sendChanges()
        // Carry the effects out by hand, collecting the probes and writes in order.
        var order: [String] = []
        for _ in 0..<20 {
            for effect in effects {
                switch effect {
                case .probe(let name, _): order.append(name)
                case .trace("app.persisted", _, _): order.append("write")
                default: break
                }
            }
            world.apply(effects, on: phone)
            guard !phone.inbox.isEmpty else { break }
            let (id, response) = phone.inbox.removeFirst()
            effects = phone.engine.handleResponse(id, response) ?? []
        }
        #expect(order == [
            "cksync.accountChange", "cksync.stateUpdate", "write", "cksync.willSendChanges",
            "cksync.sentDatabaseChanges", "cksync.stateUpdate", "write", "cksync.sentRecordZoneChanges",
            "cksync.stateUpdate", "write", "cksync.didSendChanges",
        ])
        #expect(Set(order.filter { $0 != "write" }).isSubset(of: Set(CKSyncEngine.probePoints)))
    }

    @Test func batchesStopAt400ItemsAndSpanZones() {
        let world = TestWorld()
        let phone = world.device("phone")
        prepare(world, phone, zones: [
            "Z1": (0..<300).map { "a\($0)" }, "Z2": (0..<150).map { "b\($0)" },
        ])
        world.send(phone)
        let sent = phone.recorder.sentRecordZoneChanges
        #expect(sent.map(\.savedRecords.count) == [400, 50])
        #expect(Set(sent.first?.savedRecords.map(\.zone.name) ?? []) == ["Z1", "Z2"])
        let modifies = phone.requests.compactMap { entry -> Int? in
            if case .modifyRecords(_, _, let saves, let deletes, _, _) = entry.1 { return saves.count + deletes.count }
            return nil
        }
        // A batch that spans zones is one request (docs/CKSYNCENGINE.md, "Batches").
        #expect(modifies == [400, 50])
        #expect(world.cloud.records(in: phone.zone("Z1")).count == 300)
        #expect(world.cloud.records(in: phone.zone("Z2")).count == 150)
        #expect(phone.engine.state.pendingRecordZoneChanges.isEmpty)
    }

    @Test func aBatchAcrossZonesIsOneRequestWithItsDeletesZoneAndOneMorePerOtherDeletesZone() {
        let world = TestWorld()
        let phone = world.device("phone")
        prepare(world, phone, zones: ["Z1": ["a1", "a2"], "Z2": ["b1", "b2"]])
        world.send(phone)
        #expect(phone.requests.filter { if case .modifyRecords = $0.1 { return true } else { return false } }.count == 1)
        phone.requests = []
        phone.recorder.clear()
        // Saves in both zones and a missing zone, deletes in both zones.
        phone.makeRecord("c1", in: "Z3", title: "C1")
        phone.makeRecord("a3", in: "Z1", title: "A3")
        world.edit(phone) {
            $0.add(pendingRecordZoneChanges: [
                .saveRecord(phone.recordID("a3", in: "Z1")), .deleteRecord(phone.recordID("b1", in: "Z2")),
                .saveRecord(phone.recordID("c1", in: "Z3")), .deleteRecord(phone.recordID("a1", in: "Z1")),
            ])
        }
        world.send(phone)
        let modifies = phone.requests.compactMap { entry -> (String, [String], [String])? in
            if case .modifyRecords(_, let zone, let saves, let deletes, _, _) = entry.1 {
                return (zone.name, saves.map(\.record.recordName), deletes)
            }
            return nil
        }
        #expect(modifies.map(\.0) == ["Z2", "Z1"])
        #expect(modifies.first?.1 == ["a3", "c1"])
        #expect(modifies.first?.2 == ["b1"])
        #expect(modifies.last?.1 == [])
        #expect(modifies.last?.2 == ["a1"])
        // One sentRecordZoneChanges for the batch; the missing zone fails only its own item.
        let sent = phone.recorder.sentRecordZoneChanges
        #expect(sent.count == 1)
        #expect(sent.first?.savedRecords.map(\.recordName) == ["a3"])
        #expect(sent.first?.failedRecordSaves.map { $0.record.recordName } == ["c1"])
        #expect(sent.first?.failedRecordSaves.first?.error.code == .zoneNotFound)
        #expect(sent.first?.deletedRecordIDs.map(\.recordName) == ["b1", "a1"])
        #expect(world.cloud.records(in: phone.zone("Z1")).map(\.recordName) == ["a2", "a3"])
        #expect(world.cloud.records(in: phone.zone("Z2")).map(\.recordName) == ["b2"])
        #expect(phone.engine.state.pendingRecordZoneChanges.isEmpty)
    }

    /// Apple: the batch grows "until there are no more changes or the size of the batch
    /// reaches the maximum limit": here 400 items or 2 MB of saved records, whichever comes
    /// first; a record over the limit by itself goes alone (and fails at the cloud), so it
    /// never takes the records after it down with it.
    @Test func batchesStopBeforeTheRequestSizeLimit() {
        let world = TestWorld()
        let phone = world.device("phone")
        prepare(world, phone, zones: ["Z1": ["small1", "big", "small2", "half1", "half2", "half3"]])
        func set(_ name: String, bytes: Int) {
            let record = CloudRecord(
                recordType: "Note", recordName: name, zone: phone.zone("Z1"),
                fields: ["title": .string(name), "blob": .bytes(Array(repeating: 7, count: bytes))])
            phone.recorder.records[phone.recordID(name, in: "Z1")] = RecordSave(record: record, changedKeys: ["title", "blob"])
        }
        set("big", bytes: 2_200_000)
        for name in ["half1", "half2", "half3"] { set(name, bytes: 800_000) }
        world.send(phone)
        let batches = phone.recorder.sentRecordZoneChanges.map { sent in
            (sent.savedRecords.map(\.recordName) + sent.failedRecordSaves.map(\.record.recordName)).sorted()
        }
        #expect(batches == [["small1"], ["big"], ["half1", "half2", "small2"], ["half3"]])
        #expect(world.cloud.record(named: "big", in: phone.zone("Z1")) == nil)
        #expect(world.cloud.record(named: "small2", in: phone.zone("Z1")) != nil)
        #expect(world.cloud.record(named: "half3", in: phone.zone("Z1")) != nil)
    }

    @Test func aSaveTheProviderAnswersNilForIsSkippedAndStaysPending() {
        let world = TestWorld()
        let phone = world.device("phone")
        prepare(world, phone, zones: ["Z1": ["a", "b", "c"]])
        phone.recorder.records[phone.recordID("b", in: "Z1")] = nil
        world.send(phone)
        #expect(phone.recorder.sentRecordZoneChanges.map { $0.savedRecords.map(\.recordName) } == [["a", "c"]])
        #expect(phone.engine.state.pendingRecordZoneChanges == [.saveRecord(phone.recordID("b", in: "Z1"))])
        #expect(world.cloud.record(named: "b", in: phone.zone("Z1")) == nil)
        #expect(phone.recorder.batchRequests == 2, "asked again; nil ends the send")
        #expect(phone.recorder.flow.suffix(2) == ["sentRecordZoneChanges", "didSendChanges"])
    }

    @Test func aThrottledSendIsRetriedAfterCloudKitsRetryAfter() {
        let world = TestWorld()
        let phone = world.device("phone", automaticallySync: true)
        world.wait(.seconds(2))
        prepare(world, phone, zones: ["Z1": []])
        world.wait(.seconds(2))
        let start = world.now
        world.cloud.throttle(account: "alice", until: start + .seconds(30))
        phone.makeRecord("n1", in: "Z1", title: "one")
        world.edit(phone) { $0.add(pendingRecordZoneChanges: [.saveRecord(phone.recordID("n1", in: "Z1"))]) }
        world.wait(.seconds(60))
        let sends = phone.requests.filter { $0.0 >= start }.map(\.0)
        // The scheduled send at +1 s is refused with retry-after 29 s; the retry goes at +30 s.
        #expect(sends == [start + .seconds(1), start + .seconds(30)])
        #expect(world.cloud.records(in: phone.zone("Z1")).map(\.recordName) == ["n1"])
        #expect(phone.engine.state.pendingRecordZoneChanges.isEmpty)
    }

    @Test func aThrottledItemIsReportedKeptPendingAndRetriedAfterItsRetryAfter() {
        let world = TestWorld()
        let phone = world.device("phone")
        prepare(world, phone, zones: ["Z1": []])
        world.send(phone)
        world.cloud.throttleNextUpload(account: "alice", records: 1, retryAfter: .seconds(20))
        phone.makeRecord("n1", in: "Z1", title: "one")
        world.edit(phone) { $0.add(pendingRecordZoneChanges: [.saveRecord(phone.recordID("n1", in: "Z1"))]) }
        let start = world.now
        phone.recorder.clear()
        world.send(phone)
        let failed = phone.recorder.sentRecordZoneChanges.first?.failedRecordSaves
        #expect(failed?.map(\.error.code) == [.requestRateLimited])
        #expect(world.now == start + .seconds(20))
        #expect(world.cloud.records(in: phone.zone("Z1")).map(\.recordName) == ["n1"])
        #expect(phone.recorder.flow == [
            "willSendChanges", "sentRecordZoneChanges", "didSendChanges",
            "willSendChanges", "sentRecordZoneChanges", "didSendChanges",
        ])
    }

    @Test func perItemFailuresAreHandedToTheDelegateAndDroppedFromPending() throws {
        let world = TestWorld()
        let phone = world.device("phone")
        let laptop = world.device("laptop")
        prepare(world, phone, zones: ["Z1": ["n1"]])
        world.send(phone)
        // The laptop creates a record of the same name: an insert collision.
        laptop.makeRecord("n1", in: "Z1", title: "mine")
        // And a record in a zone nobody created.
        laptop.makeRecord("x", in: "Nowhere", title: "x")
        world.edit(laptop) {
            $0.add(pendingRecordZoneChanges: [
                .saveRecord(laptop.recordID("n1", in: "Z1")), .saveRecord(laptop.recordID("x", in: "Nowhere")),
            ])
        }
        world.send(laptop)
        let sent = try #require(laptop.recorder.sentRecordZoneChanges.first)
        #expect(sent.savedRecords.isEmpty)
        #expect(sent.failedRecordSaves.map(\.error.code) == [.serverRecordChanged, .zoneNotFound])
        #expect(sent.failedRecordSaves.first?.error.serverRecord?.fields["title"] == .string("N1"))
        #expect(sent.failedRecordSaves.first?.record.fields["title"] == .string("mine"))
        #expect(laptop.engine.state.pendingRecordZoneChanges.isEmpty)
        #expect(laptop.recorder.sentRecordZoneChanges.count == 1)
    }

    @Test func anExpiredTokenIsHandledInsideTheFetch() {
        let world = TestWorld()
        let phone = world.device("phone")
        let laptop = world.device("laptop")
        prepare(world, phone, zones: ["Z1": ["n1"]])
        world.send(phone)
        world.fetch(laptop)
        world.cloud.expireTokens(account: "alice")
        phone.makeRecord("n2", in: "Z1", title: "two")
        world.edit(phone) { $0.add(pendingRecordZoneChanges: [.saveRecord(phone.recordID("n2", in: "Z1"))]) }
        world.send(phone)
        laptop.recorder.clear()
        let before = laptop.requests.count
        world.fetch(laptop)
        #expect(laptop.recorder.flow == [
            "willFetchChanges", "fetchedDatabaseChanges", "willFetchRecordZoneChanges(Z1)",
            "fetchedRecordZoneChanges", "didFetchRecordZoneChanges(Z1)", "didFetchChanges",
        ])
        #expect(laptop.recorder.fetched.keys.sorted() == ["n1", "n2"])
        let kinds = laptop.requests.dropFirst(before).map(\.1.kind)
        // Each feed refused the old token once and was fetched again from the start.
        #expect(kinds == ["fetchDatabaseChanges", "fetchDatabaseChanges", "fetchZoneChanges", "fetchZoneChanges"])
    }

    @Test func aPushSchedulesAnAutomaticFetch() {
        let world = TestWorld()
        let phone = world.device("phone")
        let laptop = world.device("laptop", automaticallySync: true)
        world.wait(.seconds(2))  // the laptop saved its subscription
        prepare(world, phone, zones: ["Z1": ["n1"]])
        let pushedAt = world.now
        world.send(phone)
        world.wait(.seconds(2))
        #expect(laptop.recorder.fetched.keys.sorted() == ["n1"])
        let zoneFetches = laptop.requests.filter { $0.1.kind == "fetchZoneChanges" }.map(\.0)
        #expect(zoneFetches == [pushedAt + CKSyncEngine.schedulerDelay])
    }

    @Test func anAccountSwitchResetsTheState() {
        let world = TestWorld(accounts: ["alice", "bob"])
        let phone = world.device("phone")
        prepare(world, phone, zones: ["Z1": ["n1"]])
        world.send(phone)
        world.edit(phone) { $0.add(pendingRecordZoneChanges: [.saveRecord(phone.recordID("n9", in: "Z1"))]) }
        phone.client = CloudClient(device: "phone", account: "bob")
        world.apply(phone.engine.accountChanged(), on: phone)
        phone.recorder.clear()
        world.fetch(phone)
        guard case .accountChange(let change) = phone.recorder.events.first else {
            Issue.record("no accountChange first: \(phone.recorder.log)")
            return
        }
        #expect(change.changeType == .switchAccounts(
            previousUser: world.cloud.userRecordName(of: "alice"), currentUser: world.cloud.userRecordName(of: "bob")))
        #expect(phone.engine.state.pendingRecordZoneChanges.isEmpty)
        #expect(phone.recorder.flow == ["accountChange", "willFetchChanges", "didFetchChanges"])
    }

    @Test func callingTheEngineFromInsideACallbackIsARuntimeError() async {
        await #expect(processExitsWith: .failure) {
            let world = TestWorld()
            let phone = world.device("phone")
            phone.recorder.onEvent = { event, engine in
                if case .willFetchChanges = event { _ = engine.sendChanges() }
            }
            world.fetch(phone)
        }
    }
}
