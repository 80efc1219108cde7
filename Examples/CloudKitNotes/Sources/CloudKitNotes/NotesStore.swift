import CloudKit
import Foundation
import os.log

/// The app's notes and its sync engine, as an app on Apple platforms writes them: an actor that
/// owns its `CKSyncEngine`, keeps everything in one JSON file, and shows a count on the main
/// actor for its UI.
public final actor NotesStore: ObservableObject {
    static let container = CKContainer(identifier: "iCloud.synclab.examples.notes")
    static let log = Logger(subsystem: "synclab.examples.notes", category: "sync")

    struct Stored: Codable {
        var notes: [String: Note] = [:]
        var state: CKSyncEngine.State.Serialization?
    }

    /// What the UI shows, updated after every change.
    @MainActor @Published public var shownCount = 0

    var stored: Stored {
        didSet {
            Task {
                let count = self.stored.notes.count
                await MainActor.run { self.shownCount = count }
            }
        }
    }
    let fileURL: URL
    let automaticallySync: Bool
    var engine: CKSyncEngine?

    public init(fileURL: URL, automaticallySync: Bool = true) {
        self.fileURL = fileURL
        self.automaticallySync = automaticallySync
        stored = (try? JSONDecoder().decode(Stored.self, from: Data(contentsOf: fileURL))) ?? Stored()
        Task { await self.startEngine() }
    }

    func startEngine() {
        guard engine == nil else { return }
        var configuration = CKSyncEngine.Configuration(
            database: Self.container.privateCloudDatabase, stateSerialization: stored.state, delegate: self)
        configuration.automaticallySync = automaticallySync
        engine = CKSyncEngine(configuration)
    }

    /// The engine (made on first use if the launch task has not run yet).
    public var syncEngine: CKSyncEngine {
        if engine == nil { startEngine() }
        return engine!
    }

    public var notes: [String: Note] { stored.notes }

    /// Saves notes locally and queues them for upload.
    public func save(_ notes: [Note]) throws {
        for var note in notes {
            note.systemFields = stored.notes[note.id]?.systemFields
            stored.notes[note.id] = note
        }
        try persist()
        syncEngine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: Note.zoneID))])
        syncEngine.state.add(pendingRecordZoneChanges: notes.map { .saveRecord($0.recordID) })
    }

    /// Deletes notes locally and queues the deletions.
    public func delete(_ ids: [String]) throws {
        let deleted = ids.compactMap { stored.notes[$0]?.recordID }
        for id in ids { stored.notes[id] = nil }
        try persist()
        syncEngine.state.add(pendingRecordZoneChanges: deleted.map { .deleteRecord($0) })
    }

    /// Waits until a note exists, fetching once a minute.
    public func waitForNotes() async throws -> Int {
        var polls = 0
        while stored.notes.isEmpty {
            try await Task.sleep(for: .seconds(60))
            polls += 1
            try await syncEngine.fetchChanges()
        }
        return polls
    }

    func persist() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try encoder.encode(stored).write(to: fileURL)
    }
}
