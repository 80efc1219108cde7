import CloudSim
import Mirror
import SyncContract
import Testing

/// The cloud's notes are neutral; mirror's profile names MIRW-2 for a `.changedKeys` save
/// that brought a deleted record back (its export writes every attribute, MIR-12).
@Suite struct MirrorCloudNoteTests {
    static func recreated(policy: String) -> CloudNote {
        CloudNote(
            kind: "record.recreated",
            details: [NoteField("zone", "com.apple.coredata.cloudkit.zone:alice"), NoteField("recordName", "n1"),
                      NoteField("device", "phone"), NoteField("policy", policy)])
    }

    @Test func aChangedKeysRecreationIsMIRW2() {
        let profile = MirrorProfile.profile
        #expect(Self.recreated(policy: "changedKeys").rules.isEmpty)
        #expect(profile.rules(for: Self.recreated(policy: "changedKeys")) == ["MIRW-2"])
    }

    @Test func otherNotesNameNothing() {
        let profile = MirrorProfile.profile
        #expect(profile.rules(for: Self.recreated(policy: "allKeys")) == [])
        #expect(profile.rules(for: CloudNote(kind: "record.overwritten")) == [])
        #expect(profile.rules(for: CloudNote(kind: "record.saved")) == [])
    }
}
