import SyncLabEngineKit

/// The notes engine as SyncLab knows it: its name, its rules, its records.
public enum NotesProfile {
    public static let catalogue = RuleCatalogue(
        groupTitles: [("NOTES", "The notes engine")],
        rules: [
            Rule("NOTES-1", "Each note is one record of its entity's type in the zone Notes, named "
                + "ENTITY-DEVICE-MODEL when the note is first saved."),
            Rule("NOTES-2", "A local save adds a pending save of the note's record, with the keys "
                + "edited; a local delete adds a pending delete."),
            Rule("NOTES-3", "A save refused with serverRecordChanged is sent again on the server's "
                + "record with the unsent keys: local keys win, the others keep the server's values."),
            Rule("NOTES-4", "A fetched record replaces the note's values, except keys edited locally "
                + "and not yet sent."),
            Rule("NOTES-5", "A fetched deletion deletes the note, and drops its pending save."),
            Rule("NOTES-6", "Every stateUpdate is persisted at once."),
            Rule("NOTES-7", "A save refused with unknownItem (the record was deleted since) is sent "
                + "again as a new record."),
        ])

    public static let profile = EngineProfile.hosting(
        NotesSyncEngine.self,
        name: "notes",
        system: "a notes app on CKSyncEngine (async delegate, an actor)",
        cataloguePage: "README.md",
        catalogue: catalogue,
        probePoints: [ProbePoint("notes.conflict", "(notes) a serverRecordChanged is being resolved")],
        codec: NotesCodec())
}
