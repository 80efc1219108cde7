import CloudSim
import Kernel
import Testing

/// The requests behind `CKFetchShareParticipantsOperation` and `CKFetchShareMetadataOperation`
/// (docs/CLOUDSIM.md *`lookUpUser(_:)`*, *Share URLs and metadata*): who a lookup names, and
/// a share's metadata with its root for an account that may accept it.
@Suite struct ShareLookupRequestTests {
    static func account(_ outcome: CloudOutcome) -> String {
        if case .sharingLookedUp(.userFound(let account)) = outcome.response { return account }
        return outcome.response.failure.map { "\($0.code)" } ?? "?"
    }

    @Test func aLookupFindsAKnownAccountByAddressOrUserRecordNameOnly() {
        let fixture = CloudFixture()
        let bobID = CloudService.userRecordName(for: "bob")
        let answers = [UserLookup.emailAddress("bob"), .emailAddress("zed"),
                       .userRecordName(bobID), .userRecordName("_nobody"),
                       .phoneNumber("+15555550100")].map {
            Self.account(fixture.send(.lookUpUser($0), from: fixture.phone))
        }
        #expect(answers == ["bob", "unknownItem", "bob", "unknownItem", "unknownItem"])
    }

    static func root(_ outcome: CloudOutcome) -> String {
        if case .sharingLookedUp(.shareMetadataFetched(_, let root)) = outcome.response {
            return root?.recordName ?? "nil"
        }
        return outcome.response.failure.map { "\($0.code)" } ?? "?"
    }

    @Test func theRootComesWithTheMetadataForAnAccountThatMayAccept() throws {
        let fixture = CloudFixture()
        fixture.makeTree()
        fixture.share("f1", with: "bob", .readOnly)
        let share = try #require(fixture.cloud.share(of: .rootRecord("f1"), in: fixture.zone))
        let url = CloudService.shareURL(of: share)
        let request = CloudRequest.fetchShareMetadata(url: url, rootRecord: true)
        #expect(Self.root(fixture.send(request, from: fixture.desktop)) == "f1")
        #expect(Self.root(fixture.send(request, from: fixture.phone)) == "f1")
        #expect(Self.root(fixture.send(request, from: fixture.carolPad)) == "nil")
        #expect(Self.root(fixture.send(.fetchShareMetadata(url: url, rootRecord: false),
            from: fixture.desktop)) == "nil")
        #expect(Self.root(fixture.send(.fetchShareMetadata(url: url + "x", rootRecord: true),
            from: fixture.desktop)) == "unknownItem")
    }
}
