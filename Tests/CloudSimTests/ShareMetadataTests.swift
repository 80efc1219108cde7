import CloudSim
import Kernel
import Testing

/// Share URLs and `CKShare.Metadata` ([CKShare] `url`, [CKShare.Metadata],
/// [CKAcceptSharesOperation]; docs/CLOUDSIM.md row 45): what a participant needs from a URL to
/// accept, for hierarchy and zone-wide shares.
@Suite struct ShareMetadataTests {
    @Test func theMetadataOfAHierarchyShareNamesItsZoneRootAndTheInvitee() throws {
        let fixture = CloudFixture()
        fixture.makeTree()
        fixture.share("f1", with: "bob", .readOnly)
        let share = try #require(fixture.cloud.share(of: .rootRecord("f1"), in: fixture.zone))
        let url = CloudService.shareURL(of: share)
        let metadata = try #require(fixture.cloud.shareMetadata(url: url, for: "bob"))
        #expect(metadata.zone == fixture.zone)
        #expect(metadata.owner == "alice")
        #expect(metadata.rootRecordName == "f1")
        #expect(metadata.shareRecordName == share.shareRecordName)
        #expect(metadata.participant?.acceptanceStatus == .pending)
        #expect(metadata.participant?.permission == .readOnly)
        #expect(metadata.participant?.role == .privateUser)
        // Accepting with the metadata puts the owner zone into bob's shared database.
        let accepted = fixture.cloud.acceptShare(metadata: metadata, by: fixture.desktop, now: fixture.now)
        #expect(accepted.response.failure == nil)
        #expect(fixture.cloud.sharedZones(of: "bob") == [fixture.zone])
        #expect(fixture.cloud.shareMetadata(url: url, for: "bob")?.participant?.acceptanceStatus == .accepted)
    }

    /// Apple: the URL is stable for one root across deletion and re-sharing.
    @Test func theURLIsStablePerRootAndGoneWhileTheShareIsStopped() throws {
        let fixture = CloudFixture()
        fixture.makeTree()
        fixture.share("f1", with: "bob")
        let url = CloudService.shareURL(of: try #require(fixture.cloud.share(of: .rootRecord("f1"), in: fixture.zone)))
        fixture.step(.stop, by: fixture.phone)
        #expect(fixture.cloud.shareMetadata(url: url, for: "bob") == nil)
        fixture.share("f1", with: "bob")
        let again = try #require(fixture.cloud.share(of: .rootRecord("f1"), in: fixture.zone))
        #expect(CloudService.shareURL(of: again) == url)
    }

    /// A zone-wide share has no root (`hierarchicalRootRecordID` nil); a stranger gets the
    /// metadata without a participant entry and cannot accept (`permissionFailure`).
    @Test func aZoneWideShareHasNoRootAndAStrangerCannotAccept() throws {
        let fixture = CloudFixture()
        fixture.makeTree()
        #expect(fixture.step(.invite(account: "bob", permission: .readWrite), on: .zone, by: fixture.phone)
            .response.failure == nil)
        let share = try #require(fixture.cloud.share(of: .zone, in: fixture.zone))
        let url = CloudService.shareURL(of: share)
        let forCarol = try #require(fixture.cloud.shareMetadata(url: url, for: "carol"))
        #expect(forCarol.rootRecordName == nil)
        #expect(forCarol.target == .zone)
        #expect(forCarol.participant == nil)
        let refused = fixture.cloud.acceptShare(metadata: forCarol, by: fixture.carolPad, now: fixture.now)
        #expect(refused.response.failure?.code == .permissionFailure)
        let forBob = try #require(fixture.cloud.shareMetadata(url: url, for: "bob"))
        #expect(fixture.cloud.acceptShare(metadata: forBob, by: fixture.desktop, now: fixture.now)
            .response.failure == nil)
        #expect(fixture.cloud.sharedZones(of: "bob") == [fixture.zone])
    }
}
