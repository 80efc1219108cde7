import CloudSim
import Kernel
import Testing

/// The ancestor record of `serverRecordChanged` ("client oplock error updating record") is
/// the server's version that carried the client's change tag, among the versions of the
/// record since it was last created. The server keeps the earlier versions apart from the
/// current one (issue 19: a record written once keeps no version besides itself), which must
/// not change which ancestor an error carries.
@Suite struct AncestorVersionTests {
    /// Saves `name` with `tag` under `ifServerRecordUnchanged`, changing `title`; the error.
    func staleSave(
        _ fixture: CloudFixture, _ name: String, tag: String?, title: String = "stale"
    ) -> CloudError? {
        var record = fixture.note(name, ["title": .string(title)])
        record.changeTag = tag
        return fixture.modify(saves: [RecordSave(record: record, changedKeys: ["title"])])
            .response.items.first?.error
    }

    /// Writes the current server copy of `name` with a new title; the stored version.
    @discardableResult
    func update(_ fixture: CloudFixture, _ name: String, title: String) -> CloudRecord? {
        fixture.modify(saves: [fixture.edit(name, ["title": .string(title)])])
            .response.items.first?.savedRecord
    }

    @Test func aRecordWrittenOnceHasNoAncestorForAnyOtherTag() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["title": .string("v1")]))
        fixture.insert(fixture.note("n2", ["title": .string("other")]))
        let current = fixture.serverRecord("n1")
        let unknown = staleSave(fixture, "n1", tag: "ct999")
        #expect(unknown?.code == .serverRecordChanged)
        #expect(unknown?.message == "client oplock error updating record")
        #expect(unknown?.serverRecord == current)
        #expect(unknown?.ancestorRecord == nil)
        // Another record's tag is no version of this one.
        let foreign = staleSave(fixture, "n1", tag: fixture.serverRecord("n2").changeTag)
        #expect(foreign?.code == .serverRecordChanged)
        #expect(foreign?.ancestorRecord == nil)
        // Its own current tag is no conflict at all.
        #expect(staleSave(fixture, "n1", tag: current.changeTag) == nil)
    }

    @Test func aRecordWrittenTwiceOrMoreHasEachEarlierVersionAsAncestor() throws {
        let fixture = CloudFixture()
        let first = try #require(
            fixture.insert(fixture.note("n1", ["title": .string("v1")])).first?.savedRecord)
        let second = try #require(update(fixture, "n1", title: "v2"))
        let error = staleSave(fixture, "n1", tag: first.changeTag)
        #expect(error?.serverRecord == second)
        #expect(error?.ancestorRecord == first)
        let third = try #require(update(fixture, "n1", title: "v3"))
        #expect(staleSave(fixture, "n1", tag: first.changeTag)?.ancestorRecord == first)
        let latest = staleSave(fixture, "n1", tag: second.changeTag)
        #expect(latest?.ancestorRecord == second)
        #expect(latest?.serverRecord == third)
        // The versions are whole records: times, device and tag as stored.
        #expect(latest?.ancestorRecord?.modificationTime == second.modificationTime)
        #expect(latest?.ancestorRecord?.lastModifiedBy == "phone")
        #expect(third.creationTime == first.creationTime)
    }

    @Test func aDeletedAndRecreatedRecordKeepsOnlyTheVersionsOfItsNewLife() throws {
        let fixture = CloudFixture()
        let old = try #require(
            fixture.insert(fixture.note("n1", ["title": .string("v1")])).first?.savedRecord)
        let older = try #require(update(fixture, "n1", title: "v2"))
        fixture.modify(deletes: ["n1"])
        let reborn = try #require(
            fixture.insert(fixture.note("n1", ["title": .string("w1")])).first?.savedRecord)
        #expect(staleSave(fixture, "n1", tag: old.changeTag)?.ancestorRecord == nil)
        #expect(staleSave(fixture, "n1", tag: older.changeTag)?.ancestorRecord == nil)
        let current = try #require(update(fixture, "n1", title: "w2"))
        let error = staleSave(fixture, "n1", tag: reborn.changeTag)
        #expect(error?.ancestorRecord == reborn)
        #expect(error?.serverRecord == current)
        #expect(staleSave(fixture, "n1", tag: old.changeTag)?.ancestorRecord == nil)
    }

    @Test func aRecordRecreatedFromAnOldTagStartsItsVersionsAgain() throws {
        let fixture = CloudFixture()
        let old = try #require(
            fixture.insert(fixture.note("n1", ["title": .string("v1")])).first?.savedRecord)
        fixture.modify(deletes: ["n1"])
        // `changedKeys` with the old life's tag brings the record back (a re-creation).
        var back = old
        back.fields["title"] = .string("back")
        let recreated = try #require(
            fixture.modify(
                saves: [RecordSave(record: back, changedKeys: ["title"])], policy: .changedKeys
            ).response.items.first?.savedRecord)
        #expect(staleSave(fixture, "n1", tag: old.changeTag)?.ancestorRecord == nil)
        update(fixture, "n1", title: "after")
        #expect(staleSave(fixture, "n1", tag: recreated.changeTag)?.ancestorRecord == recreated)
    }
}
