import Device
import Kernel
import LocalStore
import SDS
import SyncContract
import Testing

@Suite struct DeviceTests {
    private func makeDevice() -> Device {
        let schema = Schema(entities: [
            EntityDescription(name: "Note", attributes: [
                AttributeDescription(name: "title", type: .string, defaultValue: .string("")),
            ]),
        ])
        return Device(name: "phone", schema: schema, account: "alice",
                      names: RandomStreams(seed: 1).stream("names/phone"), profile: SDSProfile.profile)
    }

    /// Delivers an event and carries out its writes, as the world does.
    private func deliverAndWrite(_ event: EngineEvent, to device: Device) {
        for case .write(let write) in device.deliver(event, now: .zero) { device.apply(write) }
    }

    /// sds handles a lent disk in its own code (`DiskLendingEngine`): the disk after
    /// `deliverWritingFirst` is what `deliver` and carrying out the writes give.
    @Test func aLentDiskEndsAsTheCopiedOneWithItsWrites() throws {
        let lent = makeDevice()
        let copied = makeDevice()
        for device in [lent, copied] { device.launch() }
        for event in [EngineEvent.storeSaved, .push, .appCall(.stop, waiter: nil), .storeSaved] {
            for device in [lent, copied] {
                let id = device.makeModelID()
                _ = try device.perform(.insert(id, entity: "Note", values: ["title": .attribute(.string("A"))]))
            }
            let lentEffects = lent.deliverWritingFirst(event, now: .zero)
            let copiedEffects = copied.deliver(event, now: .zero)
            for case .write(let write) in copiedEffects { copied.apply(write) }
            #expect(lentEffects.count == copiedEffects.count)
            if case .write? = lentEffects.first {} else { Issue.record("the first effect is not a write") }
            #expect(lent.disk == copied.disk)
        }
        #expect(lent.observation.pendingCount == 4)
    }

    /// A lending engine is handed conditions the device keeps between events and brings up
    /// to date in place (issue 19): an account switched after an event must reach the next
    /// one, as it does on the copying path that builds the conditions anew.
    @Test func aLentDiskSeesAnAccountSwitchedBetweenEvents() throws {
        let lent = makeDevice()
        let copied = makeDevice()
        for device in [lent, copied] { device.launch() }
        _ = lent.deliverWritingFirst(.storeSaved, now: .zero)
        deliverAndWrite(.storeSaved, to: copied)
        for account in ["bob", nil, "alice"] as [String?] {
            for device in [lent, copied] { device.account = account }
            let lentEffects = lent.deliverWritingFirst(.accountChanged, now: .zero)
            let copiedEffects = copied.deliver(.accountChanged, now: .zero)
            for case .write(let write) in copiedEffects { copied.apply(write) }
            #expect(traceKinds(lentEffects) == traceKinds(copiedEffects))
            #expect(lent.disk == copied.disk)
        }
    }

    /// A device whose run keeps no trace tells its engine so (`DeviceConditions.isTracing`):
    /// sds's trace effects then come without details, with the same kinds and rules (the
    /// world counts the events and notes the fired rules), and the engine decides the same.
    @Test func anUntracedDeviceGetsTheSameTracesWithoutDetails() throws {
        let traced = makeDevice()
        let untraced = makeDevice()
        untraced.isTracing = false
        for device in [traced, untraced] { device.launch() }
        var tracedDetails = 0
        for event in [EngineEvent.storeSaved, .push, .accountChanged, .storeSaved] {
            for device in [traced, untraced] {
                let id = device.makeModelID()
                _ = try device.perform(.insert(id, entity: "Note", values: ["title": .attribute(.string("A"))]))
            }
            let tracedEffects = traced.deliverWritingFirst(event, now: .zero)
            let untracedEffects = untraced.deliverWritingFirst(event, now: .zero)
            #expect(traceKindsAndRules(untracedEffects) == traceKindsAndRules(tracedEffects))
            for case .trace(_, let details, _) in untracedEffects { #expect(details.isEmpty) }
            for case .trace(_, let details, _) in tracedEffects { tracedDetails += details.count }
            #expect(untraced.disk == traced.disk)
        }
        #expect(tracedDetails > 0, "the traced device's effects carry details")
    }

    private func traceKindsAndRules(_ effects: [EngineEffect]) -> [String] {
        effects.compactMap { effect in
            if case .trace(let kind, _, let rules) = effect { return ([kind] + rules).joined(separator: " ") }
            return nil
        }
    }

    private func traceKinds(_ effects: [EngineEffect]) -> [String] {
        effects.compactMap { effect in
            if case .trace(let kind, _, _) = effect { return kind }
            return nil
        }
    }

    @Test func killLosesTheEngineButKeepsTheDisk() throws {
        let device = makeDevice()
        device.launch()
        let id = device.makeModelID()
        #expect(try device.perform(.insert(id, entity: "Note", values: ["title": .attribute(.string("A"))])))
        deliverAndWrite(.storeSaved, to: device)
        #expect(device.observation.pendingCount == 1)
        let incarnation = device.incarnation
        device.kill()
        #expect(!device.isRunning)
        #expect(device.incarnation > incarnation)
        #expect(device.disk.store.model(id)?.values["title"] == .string("A"))
        #expect(device.observation.pendingCount == 1, "pending changes are on disk")
        #expect(device.deliver(.push, now: .zero).isEmpty, "a killed app handles nothing")
    }

    @Test func theDiskChangesOnlyByTheEnginesWrites() throws {
        let device = makeDevice()
        device.launch()
        let id = device.makeModelID()
        _ = try device.perform(.insert(id, entity: "Note", values: ["title": .attribute(.string("A"))]))
        let effects = device.deliver(.storeSaved, now: .zero)
        #expect(device.observation.pendingCount == 0, "nothing written yet")
        for case .write(let write) in effects { device.apply(write) }
        #expect(device.observation.pendingCount == 1)
        #expect(device.observation.recordName(of: id) != nil)
    }

    @Test func rollbackDiscardsTheOpenTransaction() throws {
        let device = makeDevice()
        device.launch()
        device.begin()
        let id = device.makeModelID()
        #expect(try device.perform(.insert(id, entity: "Note", values: [:])) == false)
        #expect(device.hasOpenTransaction)
        device.rollback()
        #expect(device.disk.store.model(id) == nil)
        #expect(try device.commit() == false)
    }

    /// A rollback returns what it discarded, in the app's order with each model's entity; an
    /// engine that ignores rollbacks (sds) answers with no effects, so nothing changes.
    @Test func rollbackReportsWhatItDiscarded() throws {
        let device = makeDevice()
        device.launch()
        let saved = device.makeModelID()
        #expect(try device.perform(.insert(saved, entity: "Note", values: ["title": .attribute(.string("A"))])))
        deliverAndWrite(.storeSaved, to: device)
        device.begin()
        let draft = device.makeModelID()
        _ = try device.perform(.insert(draft, entity: "Note", values: ["title": .attribute(.string("B"))]))
        _ = try device.perform(.update(saved, values: ["title": .attribute(.string("C"))]))
        _ = try device.perform(.delete(saved))
        let discarded = try #require(device.rollback())
        #expect(discarded.changes == [
            DiscardedTransaction.Change(model: draft, entity: "Note", kind: .insert, keys: ["title"]),
            DiscardedTransaction.Change(model: saved, entity: "Note", kind: .update, keys: ["title"]),
            DiscardedTransaction.Change(model: saved, entity: "Note", kind: .delete, keys: []),
        ])
        #expect(device.rollback() == nil, "no transaction is open any more")
        let disk = device.disk
        #expect(device.deliverRollback(discarded, now: .zero).isEmpty)
        #expect(device.disk == disk)
        #expect(device.disk.store.model(saved)?.values["title"] == .string("A"))
    }

    @Test func aKillDropsAnOpenTransaction() throws {
        let device = makeDevice()
        device.launch()
        device.begin()
        _ = try device.perform(.insert(device.makeModelID(), entity: "Note", values: [:]))
        device.kill()
        #expect(!device.hasOpenTransaction)
        #expect(device.disk.store.models.isEmpty)
    }

    @Test func fixedLatencyDrawsNothingAndRangesStayInBounds() {
        var generator = RandomStreams(seed: 3).stream("latency/phone")
        let untouched = generator
        #expect(Latency.fixed(.milliseconds(5)).draw(&generator) == .milliseconds(5))
        #expect(generator.next() == { var copy = untouched; return copy.next() }())
        let range = Latency.range(.milliseconds(50), .milliseconds(300))
        for _ in 0..<1_000 {
            let value = range.draw(&generator)
            #expect(value >= .milliseconds(50) && value <= .milliseconds(300))
        }
    }
}
