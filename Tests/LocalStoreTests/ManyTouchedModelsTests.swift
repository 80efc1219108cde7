import LocalStore
import Testing

/// A save remembers the models it touches in a list searched in turn for a few, through an
/// index beyond (issue 19): a transaction touching many models keeps the history's order,
/// finds models it touched earlier, and undoes every change when refused.
@Suite struct ManyTouchedModelsTests {
    /// Tags inserted, some updated again, some deleted in the same transaction, and more
    /// models touched than a save searches in turn.
    static func transaction(count: Int, failing: Bool) -> Transaction {
        var operations: [Transaction.Operation] = []
        for raw in 1...count {
            operations.append(.insert(
                ModelID(UInt64(100 + raw)), entity: "Tag", values: ["label": text("t\(raw)")]))
        }
        for raw in stride(from: 2, through: count, by: 3) {
            operations.append(.update(ModelID(UInt64(100 + raw)), values: ["label": text("u")]))
        }
        for raw in stride(from: 3, through: count, by: 5) {
            operations.append(.delete(ModelID(UInt64(100 + raw))))
        }
        if failing { operations.append(.update(ModelID(9_999), values: [:])) }
        return Transaction(operations)
    }

    @Test(arguments: [3, 16, 17, 40])
    func historyOrderAndUndo(count: Int) throws {
        var store = Store(schema: Fixtures.notes())
        let before = store
        #expect(throws: StoreError.self) {
            try store.save(Self.transaction(count: count, failing: true), author: "app")
        }
        #expect(store == before)
        let entry = try #require(
            try store.save(Self.transaction(count: count, failing: false), author: "app"))
        // Inserted then deleted: no change; inserted then updated: inserted only.
        let kept = (1...count).filter { $0 % 5 != 3 }
        #expect(entry.changes == kept.map { .inserted(ModelID(UInt64(100 + $0)), entity: "Tag") })
        #expect(store.count(of: "Tag") == kept.count)
    }

    /// An identifier inserted and deleted earlier in the transaction stays used in it, also
    /// once the save searches its touched models through the index.
    @Test(arguments: [3, 40])
    func anIdentifierTouchedEarlierIsRefused(count: Int) {
        var store = Store(schema: Fixtures.notes())
        var operations = Self.transaction(count: count, failing: false).operations
        operations.append(.insert(ModelID(103), entity: "Tag", values: ["label": text("again")]))
        #expect(throws: StoreError.self) {
            try store.save(Transaction(operations), author: "app")
        }
        #expect(store.count(of: "Tag") == 0)
    }
}
