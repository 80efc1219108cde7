import CloudSim
import Kernel
import Testing

/// [CKShare] `publicPermission` (docs/CLOUDSIM.md *Sharing*): above `none` anyone with the
/// URL joins as a `publicUser` with that permission; `none` removes every public participant.
@Suite struct PublicShareTests {
    func publicFixture(_ permission: SharePermission = .readOnly) -> CloudFixture {
        let fixture = CloudFixture()
        fixture.makeTree()
        let outcome = fixture.step(.setPublicPermission(permission), by: fixture.phone)
        #expect(outcome.response.failure == nil, "\(outcome.response)")
        return fixture
    }

    @Test func settingThePublicPermissionCreatesTheShareWithTheOwnerAlone() {
        let fixture = CloudFixture()
        fixture.makeTree()
        let outcome = fixture.step(.setPublicPermission(.readOnly), by: fixture.phone)
        let info = outcome.response.shareModified?.share
        #expect(info?.publicPermission == .readOnly)
        #expect(info?.summary == ["alice:accepted:readWrite"])
        #expect(outcome.noteKinds == ["share.created", "share.public-permission"])
        #expect(fixture.serverRecord("Share-f1").publicPermission == .readOnly)
        #expect(fixture.serverRecord("f1").share == "Share-f1")
    }

    @Test func aStrangerWithTheURLJoinsAsAPublicUser() {
        let fixture = publicFixture(.readOnly)
        let outcome = fixture.step(.accept, by: fixture.carolPad)
        #expect(outcome.noteKinds == ["share.joined", "shared-zone.added"])
        let carol = outcome.response.shareModified?.share?.participant("carol")
        #expect(carol?.role == .publicUser)
        #expect(carol?.permission == .readOnly)
        #expect(carol?.acceptanceStatus == .accepted)
        #expect(fixture.sharedNames(of: fixture.carolPad) == ["Share-f1", "f1", "n1", "n2", "n3"])
    }

    @Test func aReadOnlyPublicUserCannotWrite() {
        let fixture = publicFixture(.readOnly)
        fixture.step(.accept, by: fixture.carolPad)
        let outcome = fixture.modifyShared(
            saves: [fixture.edit("n1", ["title": .string("x")])], from: fixture.carolPad)
        #expect(outcome.response.items.map(\.code) == [.permissionFailure])
        #expect(outcome.refusalReasons == ["read-only"])
    }

    @Test func aReadWritePublicUserWrites() {
        let fixture = publicFixture(.readWrite)
        fixture.step(.accept, by: fixture.carolPad)
        let outcome = fixture.modifyShared(
            saves: [fixture.edit("n1", ["title": .string("x")])], from: fixture.carolPad)
        #expect(outcome.response.items.map(\.code) == [nil])
        #expect(fixture.serverRecord("n1").fields["title"] == .string("x"))
    }

    @Test func withoutAPublicPermissionAStrangerIsRefused() {
        let fixture = publicFixture(.none)
        let outcome = fixture.step(.accept, by: fixture.carolPad)
        #expect(outcome.response.failure?.code == .permissionFailure)
        #expect(outcome.refusalReasons == ["not-invited"])
        #expect(fixture.cloud.sharedZones(of: "carol").isEmpty)
    }

    @Test func backToNoneRemovesThePublicParticipantsOnly() {
        let fixture = publicFixture(.readOnly)
        fixture.share("f1", with: "bob", .readOnly)
        fixture.step(.accept, by: fixture.desktop)
        fixture.step(.accept, by: fixture.carolPad)
        let outcome = fixture.step(.setPublicPermission(.none), by: fixture.phone)
        #expect(
            outcome.response.shareModified?.share?.summary
                == ["alice:accepted:readWrite", "bob:accepted:readOnly", "carol:removed:readOnly"])
        #expect(fixture.cloud.sharedZones(of: "carol").isEmpty)
        #expect(fixture.cloud.sharedZones(of: "bob") == [fixture.zone])
        // Public again: the removed public participant may join again by URL.
        fixture.step(.setPublicPermission(.readWrite), by: fixture.phone)
        let again = fixture.step(.accept, by: fixture.carolPad)
        #expect(again.response.shareModified?.share?.participant("carol")?.permission == .readWrite)
    }

    @Test func publicParticipantsFollowANewPublicPermission() {
        let fixture = publicFixture(.readOnly)
        fixture.step(.accept, by: fixture.carolPad)
        let outcome = fixture.step(.setPublicPermission(.readWrite), by: fixture.phone)
        let carol = outcome.response.shareModified?.share?.participant("carol")
        #expect(carol?.permission == .readWrite)
        let same = fixture.step(.setPublicPermission(.readWrite), by: fixture.phone)
        #expect(same.noteKinds.isEmpty)
        #expect(same.response.shareModified?.records.isEmpty == true)
    }

    @Test func onlyTheOwnerSetsThePublicPermission() {
        let fixture = publicFixture(.readOnly)
        fixture.step(.accept, by: fixture.carolPad)
        let outcome = fixture.step(.setPublicPermission(.readWrite), by: fixture.carolPad)
        #expect(outcome.response.failure?.code == .permissionFailure)
        #expect(outcome.refusalReasons == ["not-owner"])
        #expect(fixture.serverRecord("Share-f1").publicPermission == .readOnly)
    }

    @Test func anInvitedRemovedParticipantDoesNotComeBackByURL() {
        let fixture = publicFixture(.readOnly)
        fixture.share("f1", with: "bob", .readWrite)
        fixture.step(.removeParticipant(account: "bob"), by: fixture.phone)
        let outcome = fixture.step(.accept, by: fixture.desktop)
        #expect(outcome.response.failure?.code == .permissionFailure)
        #expect(outcome.refusalReasons == ["removed"])
    }

    @Test func aSaveOfTheShareRecordKeepsTheServersPublicPermission() {
        let fixture = publicFixture(.readWrite)
        var share = fixture.serverRecord("Share-f1")
        share.publicPermission = .none
        share.fields["cloudkit.title"] = .string("Inbox")
        let result = fixture.modify(
            saves: [RecordSave(record: share, changedKeys: ["cloudkit.title"])])
        #expect(result.response.items.map(\.code) == [nil], "\(result.response)")
        #expect(fixture.serverRecord("Share-f1").publicPermission == .readWrite)
    }
}
