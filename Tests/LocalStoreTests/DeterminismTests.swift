import LocalStore
import Testing

/// Dictionary order changes from process to process; nothing the store answers may follow it.
@Suite struct DeterminismTests {
    /// Saves many values at once, in a transaction with many side effects, and returns the
    /// history entry.
    static func busySave(names: [String]) throws -> (Store, HistoryEntry?) {
        var store = Store(schema: Fixtures.notes(folderNotes: .nullify))
        let folder = try store.insert("Folder")
        var notes: [ModelID] = []
        for _ in 0..<30 {
            notes.append(try store.insert("Note", ["folder": to(folder)]))
        }
        let tags = try names.map { name throws(StoreError) in
            try store.insert("Tag", ["label": text(name)])
        }
        var values: [String: PropertyValue] = ["tags": toMany(tags.reversed())]
        for (offset, name) in ["title", "body", "pinned", "rank"].enumerated() {
            values[name] = offset == 2 ? flag(true) : (offset == 3 ? number(9) : text(name))
        }
        let entry = try store.save(Transaction([
            .update(notes[7], values: values),
            .delete(folder),
            .delete(tags[3]),
        ]), author: "app")
        return (store, entry)
    }

    @Test func theSameSavesGiveTheSameEntries() throws {
        let names = (0..<12).map { "tag\($0)" }
        let (first, firstEntry) = try Self.busySave(names: names)
        let (second, secondEntry) = try Self.busySave(names: names)
        #expect(first == second)
        #expect(firstEntry == secondEntry)
        let entry = try #require(firstEntry)
        // The updated note first (its keys sorted), then the deletions, then every other note
        // nullified in identifier order.
        #expect(entry.changes.count == 1 + 2 + 29)
        #expect(entry.changes[0] == .updated(
            ModelID(9), entity: "Note", keys: ["body", "folder", "pinned", "rank", "tags", "title"]
        ))
        let nullified = entry.changes.dropFirst(3).map(\.id)
        #expect(nullified == nullified.sorted())
    }
}
