import CloudSim
import Kernel
import Testing

/// [CKShare.ParticipantRole] `administrator` (docs/CLOUDSIM.md *Sharing*): an accepted
/// administrator adds and removes participants and changes their permissions; roles, the
/// public permission and stopping the share stay the owner's.
@Suite struct ShareAdministratorTests {
    /// bob (desktop) an accepted administrator of alice's `f1`.
    func administeredFixture() -> CloudFixture {
        let fixture = CloudFixture()
        fixture.makeTree()
        let invite = fixture.step(
            .invite(account: "bob", permission: .readWrite, role: .administrator),
            by: fixture.phone)
        #expect(invite.response.shareModified?.share?.participant("bob")?.role == .administrator)
        #expect(invite.notes("share.invited").first?.detail("role") == "administrator")
        fixture.step(.accept, by: fixture.desktop)
        return fixture
    }

    @Test func anAdministratorInvitesAndTheInviteeAccepts() {
        let fixture = administeredFixture()
        let outcome = fixture.step(
            .invite(account: "carol", permission: .readOnly), by: fixture.desktop)
        #expect(outcome.response.failure == nil, "\(outcome.response)")
        let carol = outcome.response.shareModified?.share?.participant("carol")
        #expect(carol?.role == .privateUser)
        #expect(carol?.acceptanceStatus == .pending)
        #expect(fixture.serverRecord("Share-f1").lastModifiedBy == "desktop")
        fixture.step(.accept, by: fixture.carolPad)
        #expect(fixture.cloud.sharedZones(of: "carol") == [fixture.zone])
    }

    @Test func anAdministratorChangesAPermissionAndRemovesAParticipant() {
        let fixture = administeredFixture()
        fixture.share("f1", with: "carol", .readWrite)
        let changed = fixture.step(
            .invite(account: "carol", permission: .readOnly), by: fixture.desktop)
        #expect(changed.noteKinds.first == "share.permission-changed")
        let removed = fixture.step(.removeParticipant(account: "carol"), by: fixture.desktop)
        #expect(removed.response.shareModified?.share?.participant("carol")?.acceptanceStatus
            == .removed)
    }

    @Test func aPlainParticipantIsRefusedAsBefore() {
        let fixture = CloudFixture()
        fixture.makeTree()
        fixture.shareAndAccept("f1", .readWrite)
        let invite = fixture.step(
            .invite(account: "carol", permission: .readOnly), by: fixture.desktop)
        #expect(invite.response.failure?.code == .permissionFailure)
        #expect(invite.refusalReasons == ["not-owner"])
        let remove = fixture.step(.removeParticipant(account: "bob"), by: fixture.bobPhone)
        #expect(remove.refusalReasons == ["not-owner"])
    }

    @Test func aPendingAdministratorCannotManageYet() {
        let fixture = CloudFixture()
        fixture.makeTree()
        fixture.step(
            .invite(account: "bob", permission: .readWrite, role: .administrator),
            by: fixture.phone)
        let invite = fixture.step(
            .invite(account: "carol", permission: .readOnly), by: fixture.desktop)
        #expect(invite.refusalReasons == ["not-owner"])
    }

    @Test func theOwnerStaysTheOwners() {
        let fixture = administeredFixture()
        let removeOwner = fixture.step(.removeParticipant(account: "alice"), by: fixture.desktop)
        #expect(removeOwner.response.failure?.code == .invalidArguments)
        let stop = fixture.step(.stop, by: fixture.desktop)
        #expect(stop.refusalReasons == ["not-owner"])
        let makePublic = fixture.step(.setPublicPermission(.readOnly), by: fixture.desktop)
        #expect(makePublic.refusalReasons == ["not-owner"])
    }

    @Test func anAdministratorKeepsRolesAsTheyAre() {
        let fixture = administeredFixture()
        fixture.step(
            .invite(account: "carol", permission: .readWrite, role: .administrator),
            by: fixture.phone)
        // bob changes carol's permission: she stays an administrator.
        let changed = fixture.step(
            .invite(account: "carol", permission: .readOnly), by: fixture.desktop)
        #expect(changed.response.shareModified?.share?.participant("carol")?.role
            == .administrator)
        // bob asks to make someone an administrator: refused, nothing changes.
        let other = fixture.step(
            .invite(account: "dave", permission: .readOnly, role: .administrator),
            by: fixture.desktop)
        #expect(other.response.failure?.code == .permissionFailure)
        #expect(other.refusalReasons == ["not-owner"])
        #expect(fixture.serverRecord("Share-f1").participants.count == 3)
    }

    @Test func theOwnerDemotesAnAdministrator() {
        let fixture = administeredFixture()
        let outcome = fixture.step(
            .invite(account: "bob", permission: .readWrite, role: .privateUser), by: fixture.phone)
        #expect(outcome.noteKinds.first == "share.role-changed")
        let invite = fixture.step(
            .invite(account: "carol", permission: .readOnly), by: fixture.desktop)
        #expect(invite.refusalReasons == ["not-owner"])
    }

    @Test func onlyPrivateUserAndAdministratorAreInvited() {
        let fixture = CloudFixture()
        fixture.makeTree()
        let outcome = fixture.step(
            .invite(account: "bob", permission: .readOnly, role: .publicUser), by: fixture.phone)
        #expect(outcome.response.failure?.code == .invalidArguments)
    }

    @Test func anAdministratorSavesTheShareRecordButNotItsParticipants() {
        let fixture = administeredFixture()
        var share = fixture.serverRecord("Share-f1")
        let participants = share.participants
        share.fields["cloudkit.title"] = .string("Team")
        share.participants = [ShareParticipant.owner("alice")]
        let outcome = fixture.modifyShared(
            saves: [RecordSave(record: share, changedKeys: ["cloudkit.title"])])
        #expect(outcome.response.items.map(\.code) == [nil], "\(outcome.response)")
        #expect(fixture.serverRecord("Share-f1").fields["cloudkit.title"] == .string("Team"))
        #expect(fixture.serverRecord("Share-f1").participants == participants)
    }
}
