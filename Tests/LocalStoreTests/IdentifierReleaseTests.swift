import LocalStore
import Testing

/// Identifiers reserved for a transaction the store refused can be given back, so undoing a
/// refused download page needs no copy of the store (the sds engine's DL-4).
@Suite struct IdentifierReleaseTests {
    @Test("identifiers given back are handed out again, in the same order")
    func releasedIdentifiersComeBack() throws {
        var store = Store(schema: Fixtures.notes())
        _ = try store.insert("Note", ["title": .attribute(.string("kept"))])
        let mark = store.modelIDMark
        let first = store.makeModelID()
        let second = store.makeModelID()
        var refused = Transaction()
        refused.append(.insert(first, entity: "Note", values: ["title": .attribute(.int(1))]))
        refused.append(.insert(second, entity: "Note", values: [:]))
        #expect(throws: StoreError.self) { try store.save(refused, author: "sds") }
        let before = store
        store.releaseModelIDs(since: mark)
        #expect(store.modelIDMark == mark)
        #expect(store.makeModelID() == first)
        #expect(store.makeModelID() == second)
        #expect(store.models == before.models)
    }

    @Test("giving back nothing changes nothing")
    func releasingNothing() {
        var store = Store(schema: Fixtures.notes())
        let mark = store.modelIDMark
        store.releaseModelIDs(since: mark)
        #expect(store == Store(schema: Fixtures.notes()))
    }
}
