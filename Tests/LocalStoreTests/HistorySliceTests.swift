import LocalStore
import Testing

/// `historySlice(after:)` holds the entries `history(after:)` copies out (issue 19).
@Suite struct HistorySliceTests {
    @Test func theSliceHoldsTheEntriesAfterEachPosition() throws {
        var store = Store(schema: Fixtures.notes())
        let note = try store.insert("Note", author: "app")
        try store.update(note, ["title": text("B")], author: "sync")
        try store.update(note, ["title": text("C")], author: "app")
        for position: Int64 in [-5, 0, 1, 2, 3, 9] {
            #expect(Array(store.historySlice(after: position)) == store.history(after: position))
        }
        #expect(store.historySlice(after: 1).map(\.position) == [2, 3])
        #expect(store.historySlice(after: 3).isEmpty)
    }

    @Test func theSliceKeepsTheIndicesOfTheKeptHistory() throws {
        var store = Store(schema: Fixtures.notes())
        let note = try store.insert("Note")
        try store.update(note, ["title": text("B")])
        try store.update(note, ["title": text("C")])
        store.deleteHistory(through: 1)
        let slice = store.historySlice(after: 2)
        // Entries 2 and 3 are kept, at 0 and 1: the one after position 2 is at 1.
        #expect(slice.indices == 1..<2)
        #expect(slice[slice.startIndex].position == 3)
    }
}
