import CloudSim
import EngineKit
import LocalStore
import SyncContract
import Testing

@Suite struct RecordBindingsTests {
    let a = ModelID(1)
    let b = ModelID(2)

    @Test func bindsBothWays() {
        var bindings = RecordBindings()
        #expect(bindings.isEmpty)
        bindings.bind(b, to: "B")
        bindings.bind(a, to: "A")
        #expect(bindings.name(of: a) == "A")
        #expect(bindings.model(named: "B") == b)
        #expect(bindings.isBound(a) && bindings.isBound(name: "A"))
        #expect(bindings.count == 2)
        #expect(bindings.sortedModels == [a, b])
        #expect(bindings.sortedNames == ["A", "B"])
    }

    @Test func forgetsAModelButNotANameAnotherTook() {
        var bindings = RecordBindings()
        bindings.bind(a, to: "X")
        bindings.bind(b, to: "X")
        let first = bindings.forget(a)
        #expect(first == "X")
        #expect(bindings.name(of: a) == nil)
        #expect(bindings.model(named: "X") == b)
        let again = bindings.forget(a)
        #expect(again == nil)
        let other = bindings.forget(b)
        #expect(other == "X")
        #expect(bindings.model(named: "X") == nil)
        #expect(bindings == RecordBindings())
    }

    struct Data: BoundSyncData {
        var bindings = RecordBindings()
    }

    struct Observation: BoundObservation {
        let syncData: Data
        var pendingCount: Int { 0 }
        var hasDownloadedOnce: Bool { false }
    }

    @Test func observesThroughTheBindings() {
        var data = Data()
        data.bindings.bind(a, to: "A")
        let observation = Observation(syncData: data)
        #expect(observation.recordName(of: a) == "A")
        #expect(observation.model(forRecord: "A") == a)
        #expect(observation.model(forRecord: "B") == nil)
        #expect(observation.isModel(a, boundTo: HashedRecordName("A")))
    }
}
