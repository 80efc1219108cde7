import CloudSim
import Kernel
import Testing

/// Issue 8, item 2: the cloud enforces access. A device never reads or writes another
/// account's private database, a share it was not invited to or has not accepted, nor writes
/// through a read-only share; after a share is stopped or the participant was removed or
/// left, the zone is gone from its shared database. Every refusal is the error docs/CLOUDSIM.md (*Access control*)
/// names and an `access.refused` note; nothing leaks and nothing is written.
@Suite struct AccessControlTests {
    /// A situation in which `client` must not reach alice's zone through its shared database.
    struct Forbidden: CustomStringConvertible, Sendable {
        let name: String
        let reason: String
        let setUp: @Sendable (CloudFixture) -> CloudClient

        var description: String { name }
    }

    static let forbidden: [Forbidden] = [
        Forbidden(name: "uninvited zone", reason: "not-invited") { fixture in
            fixture.shareAndAccept()
            return fixture.carolPad
        },
        Forbidden(name: "invited, not accepted", reason: "not-accepted") { fixture in
            fixture.share("f1", with: "carol")
            return fixture.carolPad
        },
        Forbidden(name: "after unshare", reason: "share-stopped") { fixture in
            fixture.shareAndAccept()
            fixture.step(.stop, by: fixture.laptop)
            return fixture.desktop
        },
        Forbidden(name: "after removal", reason: "removed") { fixture in
            fixture.shareAndAccept()
            fixture.step(.removeParticipant(account: "bob"), by: fixture.phone)
            return fixture.desktop
        },
        Forbidden(name: "removed before accepting", reason: "removed") { fixture in
            fixture.share("f1", with: "bob")
            fixture.step(.removeParticipant(account: "bob"), by: fixture.phone)
            return fixture.desktop
        },
        Forbidden(name: "after leave", reason: "left") { fixture in
            fixture.shareAndAccept()
            fixture.step(.leave, by: fixture.bobPhone)
            return fixture.desktop
        },
        Forbidden(name: "after the root was deleted", reason: "share-stopped") { fixture in
            fixture.shareAndAccept()
            fixture.modify(deletes: ["f1"])
            fixture.insert(fixture.note("f1", type: "Folder"), fixture.note("n1", parent: "f1"))
            return fixture.desktop
        },
        Forbidden(name: "after the zone was deleted", reason: "zone-deleted") { fixture in
            fixture.shareAndAccept()
            _ = fixture.cloud.deleteZone(account: "alice", now: fixture.now)
            fixture.createAppZone(for: fixture.phone)
            fixture.makeTree()
            return fixture.desktop
        },
        Forbidden(name: "device now signed into another account", reason: "not-invited") {
            fixture in
            fixture.shareAndAccept()
            // bob's desktop switched to carol: the request arrives with the new account.
            return CloudClient(device: "desktop", account: "carol")
        },
        Forbidden(name: "the owner through its shared database", reason: "own-zone") {
            fixture in
            fixture.shareAndAccept()
            return fixture.laptop
        },
    ]

    func fixture(_ situation: Forbidden) -> (CloudFixture, CloudClient) {
        let fixture = CloudFixture()
        fixture.makeTree()
        let client = situation.setUp(fixture)
        // Make sure every account exists before the snapshot is taken.
        fixture.send(.fetchUserRecordID, from: client)
        return (fixture, client)
    }

    /// Requests through the shared database that read or write alice's zone.
    static func sharedRequests(_ fixture: CloudFixture) -> [CloudRequest] {
        let zone = fixture.zone
        let child = fixture.note("new", ["title": .string("sneaky")], parent: "f1")
        var edited = fixture.cloud.record(named: "n1", in: zone) ?? fixture.note("n1")
        edited.fields["title"] = .string("overwritten")
        return [
            .fetchZoneChanges(scope: .sharedDatabase, zone: zone, token: nil, resultsLimit: 0),
            .fetchRecords(scope: .sharedDatabase, zone: zone, names: ["f1", "n1", "x1"]),
            .modifyRecords(
                scope: .sharedDatabase, zone: zone, saves: [newSave(child)], deletes: [],
                policy: .allKeys, atomic: false),
            .modifyRecords(
                scope: .sharedDatabase, zone: zone,
                saves: [RecordSave(record: edited, changedKeys: ["title"])], deletes: ["n2"],
                policy: .changedKeys, atomic: false),
            .modifyRecords(
                scope: .sharedDatabase, zone: zone, saves: [], deletes: ["Share-f1", "f1"],
                policy: .allKeys, atomic: true),
        ]
    }

    @Test(arguments: forbidden)
    func everyForbiddenPathIsRefusedWithoutLeakingOrWriting(_ situation: Forbidden) {
        let (fixture, client) = fixture(situation)
        let before = fixture.cloud.snapshot()
        for request in Self.sharedRequests(fixture) {
            let outcome = fixture.send(request, from: client)
            let kind = request.kind
            switch request {
            case .fetchZoneChanges:
                #expect(outcome.response.failure?.code == .zoneNotFound, "\(kind)")
            case .fetchRecords:
                #expect(outcome.response.items.map(\.code) == [.zoneNotFound, .zoneNotFound,
                    .zoneNotFound])
            default:
                #expect(outcome.response.failure?.code == .permissionFailure, "\(kind)")
            }
            #expect(leakedRecords(outcome.response).isEmpty, "\(kind)")
            #expect(outcome.pushes.isEmpty)
            #expect(outcome.refusalReasons == [situation.reason], "\(kind)")
            let note = outcome.notes.first
            #expect(note?.detail("device") == client.device)
            #expect(note?.detail("account") == client.account)
            #expect(note?.detail("zone") == "App:alice")
        }
        // The shared database does not list the zone either.
        let changes = fixture.fetchSharedDatabase(after: nil, from: client).databaseChanges
        #expect(changes?.changed.isEmpty == true)
        #expect(fixture.cloud.visibleRecords(in: fixture.zone, for: client.account ?? "")
            .isEmpty || client.account == "alice")
        #expect(fixture.cloud.snapshot() == before)
    }

    /// Records an answer carries (pages, fetched or saved records, conflict copies).
    func leakedRecords(_ response: CloudResponse) -> [CloudRecord] {
        switch response {
        case .zoneChanges(let records, let deletions, _, _):
            return records + deletions.map {
                CloudRecord(recordType: $0.recordType, recordName: $0.recordName,
                    zone: ZoneID(owner: "", name: ""))
            }
        case .recordsModified(let items), .recordsFetched(let items):
            return items.compactMap { $0.savedRecord ?? $0.error?.serverRecord }
        case .failure(let error):
            return error.serverRecord.map { [$0] } ?? []
        case .shareModified(_, let records):
            return records
        default:
            return []
        }
    }

    /// A participant naming the owner's zone in its own private database reaches its own zone
    /// of that name (the default owner), never the owner's.
    @Test func anotherAccountsPrivateDatabaseStaysClosedToAParticipant() {
        let fixture = CloudFixture()
        fixture.makeTree()
        fixture.shareAndAccept()
        let before = fixture.cloud.snapshot()
        let requests: [CloudRequest] = [
            .fetchZoneChanges(
                scope: .privateDatabase, zone: fixture.zone, token: nil, resultsLimit: 0),
            .fetchRecords(scope: .privateDatabase, zone: fixture.zone, names: ["n1"]),
            .modifyRecords(
                scope: .privateDatabase, zone: fixture.zone,
                saves: [fixture.edit("n1", ["title": .string("x")])], deletes: [],
                policy: .changedKeys, atomic: false),
        ]
        for request in requests {
            let outcome = fixture.send(request, from: fixture.desktop)
            let codes = outcome.response.failure.map { [$0.code] }
                ?? outcome.response.items.map(\.code)
            #expect(codes == [.zoneNotFound], "\(request.kind)")
            #expect(outcome.noteKinds == ["owner.resolved"])
        }
        #expect(fixture.cloud.snapshot() == before)
    }

    // MARK: Read-only shares

    @Test func aReadOnlyParticipantReadsButEveryWriteIsRefused() {
        let fixture = CloudFixture()
        fixture.makeTree()
        fixture.shareAndAccept("f1", .readOnly)
        #expect(fixture.sharedNames() == ["Share-f1", "f1", "n1", "n2", "n3"])
        let before = fixture.cloud.snapshot()
        let outcome = fixture.modifyShared(
            saves: [
                fixture.edit("n1", ["title": .string("x")]),
                newSave(fixture.note("new", parent: "n1")),
            ],
            deletes: ["n2", "n3"])
        #expect(
            outcome.response.items.map(\.code) == Array(repeating: .permissionFailure, count: 4))
        #expect(outcome.refusalReasons == Array(repeating: "read-only", count: 4))
        #expect(leakedRecords(outcome.response).isEmpty)
        #expect(outcome.pushes.isEmpty)
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func aReadOnlyParticipantMayStillLeave() {
        let fixture = CloudFixture()
        fixture.makeTree()
        fixture.shareAndAccept("f1", .readOnly)
        let outcome = fixture.modifyShared(deletes: ["Share-f1"])
        #expect(outcome.response.items.map(\.isDeleted) == [true])
        #expect(outcome.noteKinds == ["share.left", "shared-zone.removed"])
        #expect(fixture.cloud.record(named: "Share-f1", in: fixture.zone) != nil)
        #expect(fixture.cloud.accessLoss(of: "bob", to: fixture.zone) == .left)
    }

    // MARK: Read-write shares

    func readWriteFixture() -> CloudFixture {
        let fixture = CloudFixture()
        fixture.makeTree()
        fixture.shareAndAccept("f1", .readWrite)
        return fixture
    }

    @Test func aReadWriteParticipantCreatesModifiesAndDeletesInsideTheShare() {
        let fixture = readWriteFixture()
        let outcome = fixture.modifyShared(
            saves: [
                newSave(fixture.note("b1", ["title": .string("from bob")], parent: "n3")),
                newSave(fixture.note("b2", parent: "b1")),
                fixture.edit("n1", ["title": .string("edited by bob")]),
            ],
            deletes: ["n2"])
        #expect(outcome.response.items.allSatisfy { $0.error == nil }, "\(outcome.response)")
        #expect(fixture.serverRecord("b1").lastModifiedBy == "desktop")
        #expect(fixture.serverRecord("n1").fields["title"] == .string("edited by bob"))
        #expect(fixture.cloud.record(named: "n2", in: fixture.zone) == nil)
        #expect(fixture.sharedNames() == ["Share-f1", "b1", "b2", "f1", "n1", "n3"])
        // Deleting a record that does not exist succeeds, as in the private database.
        #expect(fixture.modifyShared(deletes: ["ghost"]).response.items.map(\.isDeleted) == [true])
    }

    @Test func newRecordsMustBePlacedInsideTheShare() {
        let fixture = readWriteFixture()
        let before = fixture.cloud.snapshot()
        let outcome = fixture.modifyShared(saves: [
            newSave(fixture.note("orphan")),
            newSave(fixture.note("beside", parent: "x1")),
            newSave(fixture.note("below", parent: "beside")),
        ])
        #expect(outcome.response.items.map(\.code) == [
            .permissionFailure, .permissionFailure, .permissionFailure,
        ])
        #expect(outcome.refusalReasons == ["outside-share", "outside-share", "outside-share"])
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func aParticipantCannotMoveARecordOutOfTheShare() {
        let fixture = readWriteFixture()
        var out = fixture.serverRecord("n2")
        out.parent = "x1"
        var loose = fixture.serverRecord("n3")
        loose.parent = nil
        let before = fixture.cloud.snapshot()
        let outcome = fixture.modifyShared(saves: [
            RecordSave(record: out, changedKeys: []), RecordSave(record: loose, changedKeys: []),
        ])
        #expect(outcome.response.items.map(\.code) == [.permissionFailure, .permissionFailure])
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func aParticipantCannotTouchRecordsOutsideTheShare() {
        let fixture = readWriteFixture()
        let before = fixture.cloud.snapshot()
        // x1 exists outside the share: no conflict copy may reveal it.
        let blind = fixture.modifyShared(
            saves: [newSave(fixture.note("x1", ["title": .string("mine")], parent: "f1"))],
            deletes: ["m1"])
        #expect(blind.response.items.map(\.code) == [.permissionFailure, .permissionFailure])
        #expect(leakedRecords(blind.response).isEmpty)
        let edit = fixture.modifyShared(
            saves: [fixture.edit("x1", ["title": .string("mine")])], policy: .allKeys)
        #expect(edit.response.items.map(\.code) == [.permissionFailure])
        #expect(edit.refusalReasons == ["outside-share"])
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func onlyTheOwnerDeletesTheRootOrSavesTheShare() {
        let fixture = readWriteFixture()
        let before = fixture.cloud.snapshot()
        guard var share = fixture.cloud.record(named: "Share-f1", in: fixture.zone) else {
            Issue.record("no share")
            return
        }
        share.participants = [ShareParticipant.owner("bob")]
        let outcome = fixture.modifyShared(
            saves: [RecordSave(record: share, changedKeys: [])], deletes: ["f1"])
        #expect(outcome.response.items.map(\.code) == [.permissionFailure, .permissionFailure])
        #expect(outcome.refusalReasons == ["share-owner-only", "root-delete"])
        // A new share record is no better.
        let forged = CloudRecord(
            recordType: "cloudkit.share", recordName: "Forged", zone: fixture.zone)
        #expect(
            fixture.modifyShared(saves: [newSave(forged)]).response.items.map(\.code)
                == [.permissionFailure])
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func aParticipantCannotMoveARecordIntoAReadOnlyShare() {
        let fixture = readWriteFixture()
        fixture.shareAndAccept("f2", .readOnly)
        var moved = fixture.serverRecord("n2")
        moved.parent = "f2"
        let outcome = fixture.modifyShared(saves: [RecordSave(record: moved, changedKeys: [])])
        #expect(outcome.response.items.map(\.code) == [.permissionFailure])
        #expect(outcome.refusalReasons == ["read-only"])
        // Within its read-write share it moves freely.
        var within = fixture.serverRecord("n2")
        within.parent = "n3"
        #expect(
            fixture.modifyShared(saves: [RecordSave(record: within, changedKeys: [])]).response
                .items.first?.savedRecord?.parent == "n3")
    }

    @Test func anAtomicRequestWithARefusedItemWritesNothing() {
        let fixture = readWriteFixture()
        let before = fixture.cloud.snapshot()
        let outcome = fixture.modifyShared(
            saves: [fixture.edit("n1", ["title": .string("ok")]), newSave(fixture.note("out"))],
            atomic: true)
        #expect(outcome.response.items.map(\.code) == [.batchRequestFailed, .permissionFailure])
        #expect(outcome.noteKinds == ["access.refused", "records.atomic-rollback"])
        #expect(fixture.cloud.snapshot() == before)
    }

    // MARK: Quota, zones

    @Test func theOwnersQuotaCountsForWritesToTheShare() {
        let fixture = readWriteFixture()
        fixture.cloud.setQuotaFull(account: "bob", true)
        #expect(
            fixture.modifyShared(saves: [fixture.edit("n1", ["title": .string("a")])]).response
                .items.first?.savedRecord != nil)
        fixture.cloud.setQuotaFull(account: "bob", false)
        fixture.cloud.setQuotaFull(account: "alice", true)
        let full = fixture.modifyShared(
            saves: [fixture.edit("n1", ["title": .string("b")])], deletes: ["n2"])
        #expect(full.response.items.map(\.code) == [.quotaExceeded, nil])
        #expect(
            full.response.items.first?.error?.message == "The share owner's iCloud storage is full")
        #expect(fixture.cloud.record(named: "n2", in: fixture.zone) == nil)
    }

    @Test func zonesCannotBeCreatedOrDeletedInTheSharedDatabase() {
        let fixture = readWriteFixture()
        let before = fixture.cloud.snapshot()
        for (save, delete) in [([fixture.zone], [ZoneID]()), ([], [fixture.zone])] {
            let outcome = fixture.send(
                .modifyZones(scope: .sharedDatabase, save: save, delete: delete),
                from: fixture.desktop)
            #expect(outcome.response.failure?.code == .badDatabase)
        }
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func operationChecksStillComeFirstForSharedRequests() {
        let fixture = readWriteFixture()
        fixture.cloud.throttle(account: "bob", until: fixture.now + .seconds(5))
        #expect(fixture.fetchShared(after: nil).response.failure?.code == .requestRateLimited)
        let signedOut = CloudClient(device: "desktop", account: nil)
        #expect(
            fixture.step(.accept, by: signedOut).response.failure?.code == .notAuthenticated)
        fixture.now += .seconds(5)
        fixture.cloud.outage(until: fixture.now + .seconds(5))
        #expect(fixture.share("f1", with: "carol").response.failure?.code == .serviceUnavailable)
    }

    @Test func theItemLimitComesAfterAccess() {
        let fixture = CloudFixture(maxItemsPerRequest: CloudFixture.treeNames.count)
        fixture.makeTree()
        let tooMany = (0...CloudFixture.treeNames.count).map { "r\($0)" }
        let outcome = fixture.modifyShared(deletes: tooMany, from: fixture.carolPad)
        #expect(outcome.response.failure?.code == .permissionFailure)
        fixture.shareAndAccept()
        let allowed = fixture.modifyShared(deletes: tooMany)
        #expect(allowed.response.failure?.code == .limitExceeded)
    }
}
