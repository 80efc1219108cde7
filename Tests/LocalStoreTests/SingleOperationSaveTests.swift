import LocalStore
import Testing

/// `save(_ operation:author:)` saves one operation exactly as a transaction of it alone:
/// the same store after it (models, history, identifiers), the same entry returned, the same
/// error thrown and nothing changed when it fails.
@Suite struct SingleOperationSaveTests {
    /// Saves `operation` both ways on two equal stores and checks they stay equal; true when
    /// the save was refused.
    @discardableResult
    static func saveBothWays(
        _ operation: Transaction.Operation, alone: inout Store, inTransaction: inout Store,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let before = alone
        var single: Result<HistoryEntry?, StoreError>
        do { single = .success(try alone.save(operation, author: "app")) } catch {
            single = .failure(error)
        }
        var wrapped: Result<HistoryEntry?, StoreError>
        do {
            wrapped = .success(try inTransaction.save(Transaction([operation]), author: "app"))
        } catch {
            wrapped = .failure(error)
        }
        #expect(single == wrapped, sourceLocation: sourceLocation)
        #expect(alone == inTransaction, sourceLocation: sourceLocation)
        guard case .failure = single else { return false }
        #expect(alone == before, sourceLocation: sourceLocation)
        return true
    }

    @Test func everyKindOfOperationMatchesItsTransaction() throws {
        var alone = Store(schema: Fixtures.notes())
        var inTransaction = alone
        let folder = alone.makeModelID()
        _ = inTransaction.makeModelID()
        let note = alone.makeModelID()
        _ = inTransaction.makeModelID()
        let operations: [Transaction.Operation] = [
            .insert(folder, entity: "Folder", values: ["name": .attribute(.string("Inbox"))]),
            .insert(note, entity: "Note", values: ["title": .attribute(.string("a")),
                                                   "folder": .relationship(folder)]),
            .update(note, values: ["title": .attribute(.string("b")), "rank": cleared]),
            // Unchanged values: no history entry either way.
            .update(note, values: ["title": .attribute(.string("b"))]),
            // Refused: an unknown model, an unknown property.
            .update(ModelID(9_999), values: ["title": .attribute(.string("x"))]),
            .update(note, values: ["colour": .attribute(.string("red"))]),
            // The folder's cascade deletes the note in the same save: then the note is unknown.
            .delete(folder),
            .delete(note),
        ]
        let refused = operations.indices.filter {
            Self.saveBothWays(operations[$0], alone: &alone, inTransaction: &inTransaction)
        }
        #expect(refused == [4, 5, 7])
        #expect(alone.lastHistoryPosition == 4)
        #expect(alone.model(note) == nil && alone.model(folder) == nil)
    }

    @Test func manySavesInARowReuseNothingTheyShouldNot() throws {
        // Saves one after another (each may reuse the last one's lists) keep matching.
        var alone = Store(schema: Fixtures.notes())
        var inTransaction = alone
        var ids: [ModelID] = []
        for index in 0..<40 {
            let id = alone.makeModelID()
            _ = inTransaction.makeModelID()
            ids.append(id)
            Self.saveBothWays(
                .insert(id, entity: "Note", values: ["title": .attribute(.string("n\(index)"))]),
                alone: &alone, inTransaction: &inTransaction)
            if index % 3 == 2 {
                Self.saveBothWays(.delete(ids[index - 1]), alone: &alone,
                                  inTransaction: &inTransaction)
            }
        }
    }
}
