import CloudSim
import Kernel
import LocalStore
@testable import SDS
import SyncContract
import Testing

/// The ordered indexes of the pending changes (an upload reads them instead of sorting every
/// pending model per request) and the journal that undoes a refused download page at the
/// cost of what the page changed (DL-4).
@Suite struct PendingChangesTests {
    private static func change(_ kind: UInt64) -> PendingChange {
        switch kind % 4 {
        case 0: return PendingChange(isInsert: true, keys: ["title": 1])
        case 1: return PendingChange(keys: ["body": 2])
        case 2: return PendingChange(isInsert: true, keys: ["title": 3], isAdoption: true)
        default:
            var moved = PendingChange(isInsert: true, keys: ["folder": 4])
            moved.movedFrom = ["f1"]
            return moved
        }
    }

    @Test("the indexes read what a sort of the map gives, after inserts, updates and removals")
    func indexesMatchSortedKeys() {
        var random = RandomStreams(seed: 7).stream("pending")
        var pending = PendingChanges()
        var reference: [ModelID: PendingChange] = [:]
        for step in 0..<4_000 {
            // Mostly small identifiers, some far beyond the dense range.
            let raw = step % 97 == 0 ? OrderedModelIDs.denseLimit + random.next() % 50 : 1 + random.next() % 700
            let id = ModelID(raw)
            if random.next() % 3 == 0 {
                pending[id] = nil
                reference[id] = nil
            } else {
                let value = Self.change(random.next())
                pending[id] = value
                reference[id] = value
            }
            if step % 50 == 0 || step == 3_999 {
                #expect(Array(pending.inOrder) == reference.keys.sorted())
                #expect(Array(pending.othersInOrder)
                        == reference.keys.sorted().filter { !reference[$0]!.isPlainInsert })
                #expect(pending.count == reference.count)
                #expect(pending.inOrder.count == reference.count)
            }
        }
        #expect(pending.count > 100, "the sweep kept changes")
    }

    @Test("equal maps are equal and hash alike, whatever order built them")
    func equalityIgnoresTheIndexes() {
        var first = PendingChanges()
        var second = PendingChanges()
        for raw in UInt64(1)...300 { first[ModelID(raw)] = Self.change(raw) }
        for raw in (UInt64(1)...400).reversed() { second[ModelID(raw)] = Self.change(raw) }
        #expect(first != second)
        for raw in UInt64(301)...400 { second[ModelID(raw)] = nil }
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        let literal: PendingChanges = [ModelID(2): Self.change(1)]
        #expect(Array(literal.inOrder) == [ModelID(2)] && Array(literal.othersInOrder) == [ModelID(2)])
    }

    @Test("a plain insert that becomes an adoption moves into the other changes, and back")
    func reclassifiesOnUpdate() {
        var pending = PendingChanges()
        pending[ModelID(5)] = Self.change(0)
        #expect(Array(pending.othersInOrder).isEmpty)
        pending[ModelID(5)]?.isAdoption = true
        #expect(Array(pending.othersInOrder) == [ModelID(5)])
        pending[ModelID(5)]?.isAdoption = false
        #expect(Array(pending.othersInOrder).isEmpty && Array(pending.inOrder) == [ModelID(5)])
    }

    @Test("restoring a page journal undoes every change the page made")
    func journalRestoresTheContext() throws {
        let schema = Schema(entities: [EntityDescription(
            name: "Note", attributes: [AttributeDescription(name: "title", type: .string, isOptional: true)])])
        var store = Store(schema: schema)
        var transaction = Transaction()
        let old = store.makeModelID()
        let twin = store.makeModelID()
        transaction.append(.insert(old, entity: "Note", values: [:]))
        transaction.append(.insert(twin, entity: "Note", values: [:]))
        try store.save(transaction, author: "app")
        var data = SDSSyncData()
        data.bind(old, to: "n1")
        data.bind(twin, to: "local-twin")
        data.setChangeTag("t1", for: "n1")
        data.setChangeTag("t9", for: "gone")
        data.pending[twin] = PendingChange(isInsert: true, keys: ["title": 1], isAdoption: true)
        data.unanswered["gone"] = UnansweredUpload(keys: ["title": 1], changeTag: "t8")
        data.editVersion = 4
        var context = SDSContext(
            now: .zero, device: "laptop", account: "alice", accountStatus: .available,
            isOnline: true, store: store, syncData: data,
            names: RandomStreams(seed: 3).stream("names/laptop"))
        let before = context
        var journal = PageJournal(context: context)
        // What storing a page of n1, n2, n3 and the deletion of "gone" does before its save:
        // LIM-2 moves the app's model of n1 to a random name, new models get n1 and n2, the
        // twin takes n3, the deletion is applied; one name is changed twice.
        journal.bind(old, to: context.makeRandomRecordName(), in: &context.syncData)
        for name in ["n1", "n2"] {
            journal.bind(context.store.makeModelID(), to: name, in: &context.syncData)
        }
        journal.unbind(twin, in: &context.syncData)
        journal.bind(twin, to: "n3", in: &context.syncData)
        journal.setPending(nil, for: twin, in: &context.syncData)
        journal.setChangeTag(nil, for: "gone", in: &context.syncData)
        journal.setChangeTag("t5", for: "n1", in: &context.syncData)
        journal.setChangeTag(nil, for: "n1", in: &context.syncData)
        _ = journal.removeUnanswered("gone", in: &context.syncData)
        journal.removePendingDeletion("gone", in: &context.syncData)
        journal.setSkippedDeletion("Note", for: "gone", in: &context.syncData)
        journal.setSkippedRule("EXT-2", for: "gone", in: &context.syncData)
        #expect(context.syncData != before.syncData)
        journal.restore(&context)
        #expect(context.syncData == before.syncData)
        #expect(context.store == before.store)
        #expect(context.names == before.names)
        #expect(context.store.makeModelID() == ModelID(3), "the identifiers reserved were given back")
    }
}
