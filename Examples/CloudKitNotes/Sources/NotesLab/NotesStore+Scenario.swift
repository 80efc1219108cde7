import CloudKit
import CloudKitNotes
import Foundation
import SyncLab
import SyncLabTesting

/// How scenario files and the explorer drive the notes app: a scenario's `Note` is a note,
/// its label the note's record name. Only this adapter knows both sides; the app is unchanged.
extension NotesStore: ScenarioApp {
    public static func launch(in container: AppContainer) async -> NotesStore {
        NotesStore(fileURL: container.documents.appendingPathComponent("notes.json"))
    }

    public func apply(_ edits: [ScenarioEdit]) async throws {
        let now = DeviceRuntime.current?.date ?? .distantPast
        var saved: [Note] = []
        var deleted: [String] = []
        for edit in edits {
            guard edit.kind != .delete else {
                deleted.append(edit.id)
                continue
            }
            var note = saved.last { $0.id == edit.id } ?? notes[edit.id] ?? Note(id: edit.id, text: "", modified: now)
            if case .string(let text)? = edit.values["text"] { note.text = text }
            if case .int(let count)? = edit.values["count"] { note.count = count }
            if case .bool(let pinned)? = edit.values["pinned"] { note.pinned = pinned }
            note.modified = now
            saved.append(note)
        }
        if !saved.isEmpty { try save(saved) }
        if !deleted.isEmpty { try delete(deleted) }
    }

    public func models() async -> [ScenarioModel] {
        notes.values.map { note in
            ScenarioModel(id: note.id, entity: "Note", values: [
                "text": .string(note.text), "count": .int(note.count), "pinned": .bool(note.pinned),
            ])
        }
    }
}

/// A lab that knows the notes app as the engine `notes`: the tests' and `notes-lab`'s.
public func notesLab() -> ScenarioLab {
    var lab = ScenarioLab()
    lab.command = "notes-lab"  // the lines that rerun a seed name the lab's own executable
    lab.register(.scenarioApp(NotesStore.self, name: "notes", zoneNames: ["Notes"]))
    return lab
}
