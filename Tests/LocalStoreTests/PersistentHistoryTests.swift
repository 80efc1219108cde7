import LocalStore
import Testing

/// The persistent history (the channel `history` and `mirror` read): saves and batch deletes
/// in one order, with authors and tombstones, after a token; the save notifications keep
/// leaving batch deletes out.
@Suite struct PersistentHistoryTests {
    @Test func savesAndBatchDeletesComeInTheOrderTheyHappened() throws {
        var store = Store(schema: Fixtures.notes())
        let a = try store.insert("Note", ["title": text("A")], author: "app")
        let b = try store.insert("Note", ["title": text("B")], author: "sync")
        let before = store.model(b)
        store.batchDelete(entity: "Note", where: ["title": .string("B")])
        try store.update(a, ["title": text("A!")], author: "app")
        let all = store.persistentHistory(after: nil)
        #expect(all.map(\.token) == [
            HistoryToken(position: 1), HistoryToken(position: 2), HistoryToken(position: 2,
                batch: 1),
            HistoryToken(position: 3),
        ])
        #expect(all.map(\.author) == ["app", "sync", Store.batchDeleteAuthor, "app"])
        #expect(all.map(\.isBatchDelete) == [false, false, true, false])
        let tombstone = try #require(before)
        #expect(all[2].changes == [.deleted(b, entity: "Note", tombstone: tombstone)])
        // The save notifications are unchanged: no entry for the batch delete.
        #expect(store.history(after: 0).map(\.position) == [1, 2, 3])
        #expect(store.lastHistoryPosition == 3)
    }

    @Test func aTokenSelectsTheTransactionsAfterIt() throws {
        var store = Store(schema: Fixtures.notes())
        try store.insert("Note", ["title": text("A")])
        try store.insert("Note", ["title": text("B")])
        store.batchDelete(entity: "Note", where: ["title": .string("A")])
        store.batchDelete(entity: "Note", where: ["title": .string("B")])
        #expect(store.persistentHistory(after: HistoryToken(position: 2)).map(\.token.batch) == [1,
            2])
        #expect(store.persistentHistory(after: HistoryToken(position: 2,
            batch: 1)).map(\.token.batch) == [2])
        #expect(store.persistentHistory(after: store.newestHistoryToken).isEmpty)
        #expect(store.newestHistoryToken == HistoryToken(position: 2, batch: 2))
        #expect(HistoryToken(position: 2) < HistoryToken(position: 2, batch: 1))
        #expect(HistoryToken(position: 2, batch: 9) < HistoryToken(position: 3))
    }

    @Test func deletingThroughATokenKeepsWhatFollows() throws {
        var store = Store(schema: Fixtures.notes())
        try store.insert("Note", ["title": text("A")])
        store.batchDelete(entity: "Note", where: [:])
        try store.insert("Note", ["title": text("B")])
        store.deletePersistentHistory(through: HistoryToken(position: 1, batch: 1))
        #expect(store.persistentHistory(after: nil).map(\.token) == [HistoryToken(position: 2)])
        // Batch numbers are never reused.
        store.batchDelete(entity: "Note", where: [:])
        #expect(store.persistentHistory(after: nil).last?.token == HistoryToken(position: 2,
            batch: 2))
    }

    @Test func losingTheStoreDiscardsBatchDeletesToo() throws {
        var store = Store(schema: Fixtures.notes())
        try store.insert("Note", ["title": text("A")])
        store.batchDelete(entity: "Note", where: [:])
        store.lose()
        #expect(store.persistentHistory(after: nil).isEmpty)
    }

    @Test func anEmptyBatchDeleteRecordsNothing() {
        var store = Store(schema: Fixtures.notes())
        store.batchDelete(entity: "Note", where: [:])
        #expect(store.persistentHistory(after: nil).isEmpty)
        #expect(store.newestHistoryToken == .start)
    }
}
