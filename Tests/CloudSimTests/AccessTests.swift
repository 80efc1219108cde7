import CloudSim
import Kernel
import Testing

/// Accounts and permissions ([CKDatabase], [CKError.Code]; docs/CLOUDSIM.md *Handling a request*): authentication, the user record ID,
/// another account's private database, the shared database without any share, and the order
/// of the operation-level checks. Sharing's access control: AccessControlTests.
@Suite struct AccessTests {
    static let statuses: [(AccountStatus, CloudErrorCode)] = [
        (.noAccount, .notAuthenticated),
        (.restricted, .notAuthenticated),
        (.couldNotDetermine, .notAuthenticated),
        (.temporarilyUnavailable, .accountTemporarilyUnavailable),
    ]

    static let databaseRequests: [CloudRequest] = {
        let zone = ZoneID(owner: "alice", name: "App")
        return [
            .fetchUserRecordID,
            .modifyZones(scope: .privateDatabase, save: [zone], delete: []),
            .saveDatabaseSubscription(scope: .privateDatabase),
            .fetchDatabaseChanges(scope: .privateDatabase, token: nil),
            .fetchZoneChanges(scope: .privateDatabase, zone: zone, token: nil, resultsLimit: 0),
            .modifyRecords(
                scope: .privateDatabase, zone: zone, saves: [], deletes: ["n1"],
                policy: .ifServerRecordUnchanged, atomic: false),
            .fetchRecords(scope: .privateDatabase, zone: zone, names: ["n1"]),
        ]
    }()

    @Test(arguments: statuses)
    func anUnusableAccountFailsEveryDatabaseRequest(_ status: AccountStatus, _ code: CloudErrorCode)
    {
        let fixture = CloudFixture()
        let client = CloudClient(device: "phone", account: "alice", accountStatus: status)
        for request in Self.databaseRequests {
            #expect(
                fixture.send(request, from: client).response.failure?.code == code,
                "\(request.kind)")
        }
    }

    @Test func aSignedOutDeviceIsNotAuthenticated() {
        let fixture = CloudFixture()
        let client = CloudClient(device: "tablet", account: nil)
        #expect(client.accountStatus == .noAccount)
        for request in Self.databaseRequests {
            #expect(fixture.send(request, from: client).response.failure?.code == .notAuthenticated)
        }
        #expect(fixture.send(.accountStatus, from: client).response == .accountStatus(.noAccount))
    }

    @Test(arguments: [
        AccountStatus.available, .noAccount, .restricted, .couldNotDetermine,
        .temporarilyUnavailable,
    ])
    func accountStatusAlwaysAnswersTheClientsStatus(_ status: AccountStatus) {
        let fixture = CloudFixture()
        fixture.cloud.outage(until: .hours(1))
        fixture.cloud.throttle(account: "alice", until: .hours(1))
        let client = CloudClient(device: "phone", account: "alice", accountStatus: status)
        #expect(fixture.send(.accountStatus, from: client).response == .accountStatus(status))
    }

    @Test func theUserRecordIDIsStablePerAccountAndShapedLikeCloudKits() {
        let fixture = CloudFixture()
        let alice = fixture.send(.fetchUserRecordID, from: fixture.phone).response
        let aliceAgain = fixture.send(.fetchUserRecordID, from: fixture.laptop).response
        let bob = fixture.send(.fetchUserRecordID, from: fixture.desktop).response
        guard case .userRecordID(let name) = alice else {
            Issue.record("no user record id")
            return
        }
        #expect(alice == aliceAgain)
        #expect(alice != bob)
        #expect(name.count == 33)
        #expect(name.hasPrefix("_"))
        #expect(name.dropFirst().allSatisfy { "0123456789abcdef".contains($0) })
        #expect(name == fixture.cloud.userRecordName(of: "alice"))
        #expect(
            name
                == CloudService(configuration: CloudConfiguration(accounts: [])).userRecordName(
                    of: "alice"))
    }

    /// The private database holds only the signed-in account's zones: a zone ID kept from
    /// another account (as after a switch) names the requester's own zone of that name, and
    /// alice's data stays out of bob's reach.
    @Test func anotherAccountsZoneIDNamesTheRequestersOwnZone() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["secret": .string("alice's")]))
        let aliceZone = fixture.zone
        let bobZone = ZoneID(owner: "bob", name: aliceZone.name)
        func send(_ request: CloudRequest) -> CloudOutcome {
            let outcome = fixture.send(request, from: fixture.desktop)
            #expect(outcome.notes.first?.kind == "owner.resolved", "\(request.kind)")
            #expect(
                outcome.notes.first?.details.map(\.value)
                    == ["desktop", request.kind, "App:alice", "App:bob"])
            return outcome
        }
        let fetch = send(.fetchZoneChanges(
            scope: .privateDatabase, zone: aliceZone, token: nil, resultsLimit: 0))
        #expect(fetch.response.failure?.code == .zoneNotFound)
        let early = send(.modifyRecords(
            scope: .privateDatabase, zone: aliceZone, saves: [newSave(fixture.note("x"))],
            deletes: [], policy: .allKeys, atomic: false))
        #expect(early.response.items.map(\.code) == [.zoneNotFound])
        #expect(send(.modifyZones(scope: .privateDatabase, save: [aliceZone], delete: []))
            .noteKinds == ["owner.resolved", "zone.created"])
        let saved = send(.modifyRecords(
            scope: .privateDatabase, zone: aliceZone, saves: [newSave(fixture.note("x"))],
            deletes: ["n1"], policy: .allKeys, atomic: false))
        #expect(saved.response.failure == nil)
        #expect(fixture.cloud.records(in: bobZone).map(\.recordName) == ["x"])
        #expect(fixture.cloud.records(in: bobZone).map(\.zone) == [bobZone])
        let read = send(.fetchRecords(scope: .privateDatabase, zone: aliceZone, names: ["n1"]))
        #expect(read.response.items.map(\.code) == [.unknownItem])
        #expect(fixture.cloud.records(in: aliceZone).map(\.recordName) == ["n1"])
        #expect(fixture.cloud.records(in: aliceZone).first?.fields["secret"] == .string("alice's"))
    }

    @Test func theSharedDatabaseIsEmptyAndRefusesWrites() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"))
        let changes = fixture.send(
            .fetchDatabaseChanges(scope: .sharedDatabase, token: nil), from: fixture.desktop)
        #expect(changes.response.databaseChanges?.changed.isEmpty == true)
        #expect(changes.response.databaseChanges?.deleted.isEmpty == true)
        let aliceZone = fixture.zone
        let zoneFetch = fixture.send(
            .fetchZoneChanges(scope: .sharedDatabase, zone: aliceZone, token: nil, resultsLimit: 0),
            from: fixture.desktop)
        #expect(zoneFetch.response.failure?.code == .zoneNotFound)
        let records = fixture.send(
            .fetchRecords(scope: .sharedDatabase, zone: aliceZone, names: ["n1"]),
            from: fixture.desktop)
        #expect(records.response.items.map(\.code) == [.zoneNotFound])
        let write = fixture.send(
            .modifyRecords(
                scope: .sharedDatabase, zone: aliceZone, saves: [], deletes: ["n1"],
                policy: .allKeys, atomic: false),
            from: fixture.desktop)
        #expect(write.response.failure?.code == .permissionFailure)
        let zoneWrite = fixture.send(
            .modifyZones(scope: .sharedDatabase, save: [aliceZone], delete: []),
            from: fixture.desktop)
        #expect(zoneWrite.response.failure?.code == .badDatabase)
        #expect(fixture.cloud.records(in: aliceZone).map(\.recordName) == ["n1"])
    }

    @Test func operationChecksRunInOrderOutageAuthenticationThrottle() {
        let fixture = CloudFixture()
        let signedOut = CloudClient(device: "desktop", account: nil)
        let foreignWrite = CloudRequest.modifyRecords(
            scope: .privateDatabase, zone: fixture.zone, saves: [], deletes: ["n1"],
            policy: .allKeys, atomic: false)
        fixture.cloud.outage(until: fixture.now + .seconds(10))
        fixture.cloud.throttle(account: "bob", until: fixture.now + .seconds(20))
        #expect(
            fixture.send(foreignWrite, from: signedOut).response.failure?.code
                == .serviceUnavailable)
        fixture.now += .seconds(10)
        #expect(
            fixture.send(foreignWrite, from: signedOut).response.failure?.code == .notAuthenticated)
        #expect(
            fixture.send(foreignWrite, from: fixture.desktop).response.failure?.code
                == .requestRateLimited)
        fixture.now += .seconds(10)
        // Past the operation checks, alice's zone ID names bob's zone, which bob never made.
        #expect(
            fixture.send(foreignWrite, from: fixture.desktop).response.items.map(\.code)
                == [.zoneNotFound])
    }

    @Test func anAccountTheConfigurationDidNotListGetsItsOwnEmptyDatabase() {
        let fixture = CloudFixture()
        let carol = CloudClient(device: "watch", account: "carol")
        fixture.createAppZone(for: carol)
        #expect(fixture.cloud.zones(of: "carol") == [fixture.cloud.appZone(of: "carol")])
        #expect(fixture.cloud.snapshot().accounts.map(\.name) == ["alice", "bob", "carol"])
    }
}
