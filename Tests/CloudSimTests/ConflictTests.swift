import CloudSim
import Kernel
import Testing

/// [CKError] (docs/CLOUDSIM.md row 11): `serverRecordChanged` carries the server's current copy, without asset
/// contents, and merging into that copy and saving it succeeds.
@Suite struct ConflictTests {
    @Test func aStaleTagFailsWithTheServersCurrentCopy() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["title": .string("a"), "count": .int(1)]))
        let phoneCopy = fixture.serverRecord("n1")
        fixture.modify(saves: [fixture.edit("n1", ["count": .int(2)])], from: fixture.laptop)
        let server = fixture.serverRecord("n1")
        let before = fixture.cloud.snapshot()

        let result = fixture.modify(saves: [
            fixture.edit("n1", ["title": .string("b")], basedOn: phoneCopy)
        ])
        let error = result.response.items.first?.error
        #expect(error?.code == .serverRecordChanged)
        #expect(error?.code.rawValue == 14)
        #expect(error?.message == "client oplock error updating record")
        #expect(error?.serverRecord == server)
        #expect(error?.serverRecord?.changeTag != phoneCopy.changeTag)
        #expect(error?.retryAfter == nil)
        #expect(result.response.isPartialFailure)
        #expect(result.pushes.isEmpty)
        #expect(result.notes.isEmpty)
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func mergingIntoTheServerRecordAndSavingItSucceeds() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["title": .string("a"), "count": .int(1)]))
        let phoneCopy = fixture.serverRecord("n1")
        fixture.modify(saves: [fixture.edit("n1", ["count": .int(2)])], from: fixture.laptop)
        let conflict = fixture.modify(saves: [
            fixture.edit("n1", ["title": .string("b")], basedOn: phoneCopy)
        ])
        guard let serverCopy = conflict.response.items.first?.error?.serverRecord else {
            Issue.record("no server record in the conflict")
            return
        }
        let retry = fixture.modify(saves: [
            fixture.edit("n1", ["title": .string("b")], basedOn: serverCopy)
        ])
        #expect(retry.response.items.first?.savedRecord != nil)
        #expect(fixture.serverRecord("n1").fields == ["title": .string("b"), "count": .int(2)])
    }

    @Test func theServerRecordOfAConflictCarriesNoAssetContents() {
        let fixture = CloudFixture()
        let photo: [UInt8] = [1, 2, 3, 4]
        fixture.insert(
            fixture.note(
                "n1",
                [
                    "photo": .asset(photo),
                    "pages": .list([.asset([9, 9]), .asset([8])]),
                    "title": .string("a"),
                ]))
        let phoneCopy = fixture.serverRecord("n1")
        fixture.modify(
            saves: [fixture.edit("n1", ["title": .string("laptop")])], from: fixture.laptop)
        let result = fixture.modify(saves: [
            fixture.edit("n1", ["title": .string("phone")], basedOn: phoneCopy)
        ])
        let serverCopy = result.response.items.first?.error?.serverRecord
        #expect(serverCopy?.fields["photo"] == .asset([]))
        #expect(serverCopy?.fields["pages"] == .list([.asset([]), .asset([])]))
        #expect(serverCopy?.fields["title"] == .string("laptop"))
        // The stored record keeps its assets.
        #expect(fixture.serverRecord("n1").fields["photo"] == .asset(photo))
    }

    @Test func anInsertCollisionCarriesTheServerRecordWithoutAssets() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["photo": .asset([7, 7])]), from: fixture.laptop)
        let result = fixture.insert(fixture.note("n1", ["title": .string("mine")]))
        let serverCopy = result.first?.error?.serverRecord
        #expect(serverCopy?.recordName == "n1")
        #expect(serverCopy?.fields == ["photo": .asset([])])
        #expect(serverCopy?.lastModifiedBy == "laptop")
    }

    @Test func conflictsInOneRequestFailOnlyTheirItemsWhenNotAtomic() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["v": .int(1)]), fixture.note("n2", ["v": .int(1)]))
        let staleCopy = fixture.serverRecord("n1")
        fixture.modify(saves: [fixture.edit("n1", ["v": .int(2)])], from: fixture.laptop)
        let results = fixture.modify(saves: [
            fixture.edit("n1", ["v": .int(3)], basedOn: staleCopy),
            fixture.edit("n2", ["v": .int(3)]),
        ]).response.items
        #expect(results.map(\.code) == [.serverRecordChanged, nil])
        #expect(fixture.serverRecord("n1").fields["v"] == .int(2))
        #expect(fixture.serverRecord("n2").fields["v"] == .int(3))
    }
}
