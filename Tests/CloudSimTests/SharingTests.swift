import CloudSim
import Kernel
import Testing

/// [CKShare] (docs/CLOUDSIM.md *Sharing*): hierarchy and zone-wide shares, participants and their statuses, the share
/// steps (invite, accept, remove, stop, leave), one share per record, and shares saved through
/// `modifyRecords`.
@Suite struct SharingTests {
    func treeFixture() -> CloudFixture {
        let fixture = CloudFixture()
        fixture.makeTree()
        return fixture
    }

    // MARK: Invite and accept

    @Test func sharingARootCreatesTheShareRecordAndInvitesThePendingAccount() {
        let fixture = treeFixture()
        let before = fixture.serverRecord("f1")
        let outcome = fixture.share("f1", with: "bob", .readWrite)
        guard let answer = outcome.response.shareModified, let info = answer.share else {
            Issue.record("no share answer: \(outcome.response)")
            return
        }
        #expect(info.shareRecordName == "Share-f1")
        #expect(info.rootRecordName == "f1")
        #expect(info.target == .rootRecord("f1"))
        #expect(info.owner == "alice")
        #expect(info.summary == ["alice:accepted:readWrite", "bob:pending:readWrite"])
        #expect(info.participants.map(\.role) == [.owner, .privateUser])
        #expect(names(answer.records) == ["Share-f1", "f1"])
        #expect(answer.records.first?.recordType == "cloudkit.share")
        #expect(answer.records.first?.isShare == true)
        #expect(outcome.noteKinds == ["share.created", "share.invited"])
        let root = fixture.serverRecord("f1")
        #expect(root.share == "Share-f1")
        #expect(root.changeTag != before.changeTag)
        #expect(root.fields == before.fields)
        #expect(fixture.cloud.shares(of: "alice") == [info])
        #expect(fixture.cloud.share(of: .rootRecord("f1"), in: fixture.zone) == info)
        #expect(fixture.cloud.shares(of: "bob").isEmpty)
        // Pending: nothing in bob's shared database yet.
        #expect(fixture.cloud.sharedZones(of: "bob").isEmpty)
        #expect(fixture.cloud.visibleRecords(in: fixture.zone, for: "bob").isEmpty)
    }

    @Test func acceptingPutsTheOwnerZoneIntoTheSharedDatabase() {
        let fixture = treeFixture()
        fixture.share("f1", with: "bob", .readOnly)
        let outcome = fixture.step(.accept, by: fixture.desktop)
        #expect(outcome.noteKinds == ["share.accepted", "shared-zone.added"])
        #expect(
            outcome.response.shareModified?.share?.summary
                == ["alice:accepted:readWrite", "bob:accepted:readOnly"])
        #expect(fixture.cloud.sharedZones(of: "bob") == [fixture.zone])
        #expect(
            names(fixture.cloud.visibleRecords(in: fixture.zone, for: "bob"))
                == ["Share-f1", "f1", "n1", "n2", "n3"])
        #expect(
            fixture.cloud.visibleRecords(in: fixture.zone, for: "alice")
                == fixture.cloud.records(in: fixture.zone))
        // The owner's own zone is never in the owner's shared database.
        #expect(fixture.cloud.sharedZones(of: "alice").isEmpty)
    }

    @Test func acceptingAgainOrAsTheOwnerChangesNothing() {
        let fixture = treeFixture()
        fixture.shareAndAccept()
        let before = fixture.cloud.snapshot()
        let again = fixture.step(.accept, by: fixture.bobPhone)
        #expect(again.response.shareModified?.records == [])
        #expect(again.notes.isEmpty && again.pushes.isEmpty)
        let owner = fixture.step(.accept, by: fixture.laptop)
        #expect(owner.response.shareModified?.share?.shareRecordName == "Share-f1")
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func acceptingWithoutAnInvitationIsAPermissionFailure() {
        let fixture = treeFixture()
        fixture.share("f1", with: "bob")
        fixture.send(.fetchUserRecordID, from: fixture.carolPad)
        let before = fixture.cloud.snapshot()
        let outcome = fixture.step(.accept, by: fixture.carolPad)
        #expect(outcome.response.failure?.code == .permissionFailure)
        #expect(outcome.refusalReasons == ["not-invited"])
        #expect(
            outcome.notes.first?.details.map(\.key) == ["device", "account", "zone", "reason"])
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func aShareThatDoesNotExistIsUnknownItem() {
        let fixture = treeFixture()
        #expect(fixture.step(.accept, by: fixture.desktop).response.failure?.code == .unknownItem)
        #expect(fixture.step(.leave, by: fixture.desktop).response.failure?.code == .unknownItem)
        #expect(fixture.step(.stop, by: fixture.phone).response.failure?.code == .unknownItem)
        #expect(
            fixture.step(.removeParticipant(account: "bob"), by: fixture.phone).response.failure?
                .code == .unknownItem)
        // The root itself must exist.
        #expect(fixture.share("ghost").response.failure?.code == .unknownItem)
    }

    @Test func onlyTheOwnerChangesShares() {
        let fixture = treeFixture()
        fixture.shareAndAccept()
        let before = fixture.cloud.snapshot()
        let actions: [ShareAction] = [
            .invite(account: "carol", permission: .readWrite), .removeParticipant(account: "bob"),
            .stop,
        ]
        for action in actions {
            let outcome = fixture.step(action, by: fixture.desktop)
            #expect(outcome.response.failure?.code == .permissionFailure, "\(action)")
            #expect(outcome.refusalReasons == ["not-owner"])
        }
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func invitationErrors() {
        let fixture = treeFixture()
        #expect(fixture.share("f1", with: "alice").response.failure?.code == .invalidArguments)
        #expect(
            fixture.share("f1", with: "bob", .none).response.failure?.code == .invalidArguments)
        fixture.share("f1", with: "bob", .readOnly)
        #expect(
            fixture.share("f1", with: "bob", .readOnly).response.failure?.code
                == .participantAlreadyInvited)
        let changed = fixture.share("f1", with: "bob", .readWrite)
        #expect(changed.noteKinds == ["share.permission-changed"])
        #expect(
            changed.response.shareModified?.share?.summary
                == ["alice:accepted:readWrite", "bob:pending:readWrite"])
        // A share record cannot be the root of a share.
        #expect(fixture.share("Share-f1").response.failure?.code == .invalidArguments)
    }

    @Test func aShareHoldsAtMostAHundredParticipantsCountingTheOwner() {
        let fixture = treeFixture()
        for index in 1...99 {
            #expect(fixture.share("f1", with: "user\(index)").response.failure == nil)
        }
        let full = fixture.share("f1", with: "user100")
        #expect(full.response.failure?.code == .tooManyParticipants)
        fixture.step(.removeParticipant(account: "user1"), by: fixture.phone)
        #expect(fixture.share("f1", with: "user100").response.failure == nil)
        #expect(fixture.cloud.share(of: .rootRecord("f1"), in: fixture.zone)?.participants.count
            == 101)
    }

    @Test func theOwnersQuotaBlocksInvitations() {
        let fixture = treeFixture()
        fixture.cloud.setQuotaFull(account: "alice", true)
        let before = fixture.cloud.snapshot()
        #expect(fixture.share("f1").response.failure?.code == .quotaExceeded)
        #expect(fixture.cloud.snapshot() == before)
    }

    // MARK: One share per record

    @Test func aRecordBelowASharedRootCannotBeShared() {
        let fixture = treeFixture()
        fixture.share("f1")
        #expect(fixture.share("n1").response.failure?.code == .alreadyShared)
        #expect(fixture.share("n3").response.failure?.code == .alreadyShared)
    }

    @Test func aRecordAboveASharedRecordCannotBeShared() {
        let fixture = treeFixture()
        fixture.share("n1")
        let outcome = fixture.share("f1")
        #expect(outcome.response.failure?.code == .alreadyShared)
        #expect(outcome.notes.isEmpty)
    }

    @Test func siblingsMayBeInDifferentShares() {
        let fixture = treeFixture()
        #expect(fixture.share("n1").response.failure == nil)
        #expect(fixture.share("n2").response.failure == nil)
        #expect(fixture.share("f2").response.failure == nil)
        #expect(
            fixture.cloud.shares(of: "alice").map(\.shareRecordName)
                == ["Share-f2", "Share-n1", "Share-n2"])
    }

    @Test func aRootCannotMoveBelowAnotherShare() {
        let fixture = treeFixture()
        fixture.share("f1")
        fixture.share("f2")
        var moved = fixture.serverRecord("f2")
        moved.parent = "n1"
        let result = fixture.modify(saves: [RecordSave(record: moved, changedKeys: [])])
        #expect(result.response.items.map(\.code) == [.alreadyShared])
        // A record holding no root moves from one share to another.
        var child = fixture.serverRecord("m1")
        child.parent = "n1"
        let plain = fixture.modify(saves: [RecordSave(record: child, changedKeys: [])])
        #expect(plain.response.items.first?.savedRecord?.parent == "n1")
    }

    @Test func aRecordHoldingARootCannotMoveBelowAnotherShare() {
        let fixture = treeFixture()
        fixture.share("f1")
        fixture.share("m1")
        var folder = fixture.serverRecord("f2")
        folder.parent = "n2"
        let result = fixture.modify(saves: [RecordSave(record: folder, changedKeys: [])])
        #expect(result.response.items.map(\.code) == [.alreadyShared])
    }

    @Test func zoneWideAndHierarchySharesExcludeEachOther() {
        let fixture = treeFixture()
        fixture.share("f1")
        let zoneShare = fixture.step(
            .invite(account: "bob", permission: .readWrite), on: .zone, by: fixture.phone)
        #expect(zoneShare.response.failure?.code == .invalidArguments)
        fixture.step(.stop, by: fixture.phone)
        #expect(
            fixture.step(
                .invite(account: "bob", permission: .readWrite), on: .zone, by: fixture.phone
            ).response.failure == nil)
        #expect(fixture.share("n2").response.failure?.code == .serverRejectedRequest)
    }

    // MARK: Zone-wide shares

    @Test func aZoneWideShareCoversEveryRecordOfTheZone() {
        let fixture = treeFixture()
        let outcome = fixture.step(
            .invite(account: "bob", permission: .readOnly), on: .zone, by: fixture.phone)
        let info = outcome.response.shareModified?.share
        #expect(info?.shareRecordName == "cloudkit.zoneshare")
        #expect(info?.rootRecordName == nil)
        #expect(info?.target == .zone)
        #expect(names(outcome.response.shareModified?.records ?? []) == ["cloudkit.zoneshare"])
        fixture.step(.accept, on: .zone, by: fixture.desktop)
        #expect(
            fixture.sharedNames() == (CloudFixture.treeNames + ["cloudkit.zoneshare"]).sorted())
        fixture.insert(fixture.note("late"))
        #expect(fixture.sharedNames().contains("late"))
    }

    // MARK: Stop, remove, leave

    @Test func stoppingDeletesTheShareAndClearsTheRoot() {
        let fixture = treeFixture()
        fixture.shareAndAccept()
        let tag = fixture.serverRecord("f1").changeTag
        let outcome = fixture.step(.stop, by: fixture.phone)
        #expect(outcome.response.shareModified?.share == nil)
        #expect(names(outcome.response.shareModified?.records ?? []) == ["f1"])
        #expect(outcome.noteKinds == ["share.deleted", "shared-zone.removed"])
        #expect(outcome.notes.first?.detail("reason") == "stopped")
        #expect(outcome.notes.last?.detail("reason") == "share-stopped")
        #expect(fixture.serverRecord("f1").share == nil)
        #expect(fixture.serverRecord("f1").changeTag != tag)
        #expect(fixture.cloud.record(named: "Share-f1", in: fixture.zone) == nil)
        #expect(fixture.cloud.tombstones(in: fixture.zone).map(\.recordName) == ["Share-f1"])
        #expect(fixture.cloud.shares(of: "alice").isEmpty)
        #expect(fixture.cloud.sharedZones(of: "bob").isEmpty)
        #expect(fixture.cloud.accessLoss(of: "bob", to: fixture.zone) == .shareStopped)
        // The same root shares again under the same share record name.
        #expect(
            fixture.share("f1").response.shareModified?.share?.shareRecordName == "Share-f1")
    }

    @Test func deletingTheRootDeletesTheShare() {
        let fixture = treeFixture()
        fixture.shareAndAccept()
        let outcome = fixture.modify(deletes: ["f1"], from: fixture.laptop)
        #expect(outcome.response.items.map(\.isDeleted) == [true])
        let deleted = outcome.notes("share.deleted")
        #expect(deleted.map { $0.detail("reason") } == ["root-deleted"])
        #expect(deleted.first?.detail("root") == "f1")
        #expect(fixture.cloud.record(named: "Share-f1", in: fixture.zone) == nil)
        #expect(fixture.cloud.sharedZones(of: "bob").isEmpty)
        #expect(fixture.cloud.accessLoss(of: "bob", to: fixture.zone) == .shareStopped)
        #expect(outcome.notes("shared-zone.removed").count == 1)
    }

    @Test func removingAParticipant() {
        let fixture = treeFixture()
        fixture.shareAndAccept()
        let outcome = fixture.step(.removeParticipant(account: "bob"), by: fixture.phone)
        #expect(outcome.noteKinds == ["share.participant-removed", "shared-zone.removed"])
        #expect(outcome.notes.last?.detail("reason") == "removed")
        #expect(
            outcome.response.shareModified?.share?.summary
                == ["alice:accepted:readWrite", "bob:removed:readWrite"])
        #expect(fixture.cloud.sharedZones(of: "bob").isEmpty)
        #expect(fixture.cloud.accessLoss(of: "bob", to: fixture.zone) == .removed)
        #expect(
            fixture.step(.removeParticipant(account: "bob"), by: fixture.phone).response.failure?
                .code == .invalidArguments)
        #expect(
            fixture.step(.removeParticipant(account: "alice"), by: fixture.phone).response
                .failure?.code == .invalidArguments)
        // Removed: accepting again is refused, until the owner invites again.
        let again = fixture.step(.accept, by: fixture.desktop)
        #expect(again.response.failure?.code == .permissionFailure)
        #expect(again.refusalReasons == ["removed"])
        fixture.share("f1", with: "bob", .readOnly)
        #expect(fixture.step(.accept, by: fixture.desktop).response.failure == nil)
        #expect(fixture.cloud.sharedZones(of: "bob") == [fixture.zone])
        #expect(fixture.cloud.accessLoss(of: "bob", to: fixture.zone) == nil)
    }

    @Test func leavingAndDeclining() {
        let fixture = treeFixture()
        fixture.shareAndAccept()
        fixture.share("f1", with: "carol")
        let left = fixture.step(.leave, by: fixture.desktop)
        #expect(left.response.shareModified?.share == nil)
        #expect(left.noteKinds == ["share.left", "shared-zone.removed"])
        #expect(left.notes.last?.detail("reason") == "left")
        #expect(fixture.cloud.accessLoss(of: "bob", to: fixture.zone) == .left)
        // Declining a pending invitation is leaving too.
        let declined = fixture.step(.leave, by: fixture.carolPad)
        #expect(declined.noteKinds == ["share.left"])
        #expect(
            fixture.cloud.share(of: .rootRecord("f1"), in: fixture.zone)?.summary == [
                "alice:accepted:readWrite", "bob:removed:readWrite", "carol:removed:readWrite",
            ])
        let retry = fixture.step(.accept, by: fixture.carolPad)
        #expect(retry.refusalReasons == ["left"])
        // The owner cannot leave; an account never invited is refused.
        #expect(fixture.step(.leave, by: fixture.phone).response.failure?.code == .invalidArguments)
        let stranger = CloudClient(device: "watch", account: "dave")
        let strangerLeave = fixture.step(.leave, by: stranger)
        #expect(strangerLeave.response.failure?.code == .permissionFailure)
        #expect(strangerLeave.refusalReasons == ["not-invited"])
        // The share stays for the owner.
        #expect(fixture.cloud.shares(of: "alice").count == 1)
    }

    // MARK: Shares saved through modifyRecords

    func shareRecord(_ fixture: CloudFixture, _ name: String) -> CloudRecord {
        CloudRecord(recordType: "cloudkit.share", recordName: name, zone: fixture.zone)
    }

    @Test func aShareSavedWithItsRootInOneRequest() {
        let fixture = treeFixture()
        var root = fixture.serverRecord("f1")
        root.share = "S1"
        var share = shareRecord(fixture, "S1")
        share.fields["cloudkit.title"] = .string("Inbox")
        share.participants = [ShareParticipant.owner("mallory")]
        let outcome = fixture.modify(
            saves: [
                RecordSave(record: share, changedKeys: ["cloudkit.title"]),
                RecordSave(record: root, changedKeys: []),
            ],
            policy: .changedKeys)
        let saved = outcome.response.items.compactMap(\.savedRecord)
        #expect(names(saved) == ["S1", "f1"])
        #expect(saved.first?.participants == [ShareParticipant.owner("alice")])
        #expect(saved.first?.fields["cloudkit.title"] == .string("Inbox"))
        #expect(saved.last?.share == "S1")
        #expect(
            fixture.cloud.shares(of: "alice").map(\.shareRecordName) == ["S1"])
        // Share records never enter the schema.
        #expect(fixture.cloud.snapshot().developmentSchema.map(\.name) == ["Folder", "Note"])
        // Inviting through the share step reuses it.
        let invite = fixture.share("f1", with: "bob")
        #expect(invite.noteKinds == ["share.invited"])
        #expect(invite.response.shareModified?.share?.shareRecordName == "S1")
    }

    @Test func aNewShareNeedsItsRootInTheSameRequest() {
        let fixture = treeFixture()
        let alone = fixture.modify(saves: [newSave(shareRecord(fixture, "S1"))])
        #expect(alone.response.items.map(\.code) == [.invalidArguments])
        // A root whose save fails takes the share down with the same error.
        fixture.cloud.reject(recordName: "f1", account: "alice", with: .serverRejectedRequest)
        var root = fixture.serverRecord("f1")
        root.share = "S1"
        let rejected = fixture.modify(
            saves: [newSave(shareRecord(fixture, "S1")), RecordSave(record: root, changedKeys: [])],
            policy: .changedKeys)
        #expect(
            rejected.response.items.map(\.code)
                == [.serverRejectedRequest, .serverRejectedRequest])
        #expect(fixture.cloud.shares(of: "alice").isEmpty)
    }

    @Test func aShareWhoseSaveFailsFailsItsRoot() {
        let fixture = treeFixture()
        var root = fixture.serverRecord("f1")
        root.share = "S1"
        var share = shareRecord(fixture, "S1")
        share.fields["bad key"] = .int(1)
        let outcome = fixture.modify(
            saves: [newSave(share), RecordSave(record: root, changedKeys: [])],
            policy: .changedKeys)
        #expect(outcome.response.items.map(\.code) == [.invalidArguments, .referenceViolation])
        #expect(fixture.serverRecord("f1").share == nil)
    }

    @Test func aRootAlreadySharedCannotGetASecondShare() {
        let fixture = treeFixture()
        fixture.share("f1")
        var root = fixture.serverRecord("f1")
        root.share = "S2"
        let outcome = fixture.modify(
            saves: [newSave(shareRecord(fixture, "S2")), RecordSave(record: root, changedKeys: [])],
            policy: .changedKeys)
        #expect(outcome.response.items.map(\.code) == [.alreadyShared, .alreadyShared])
    }

    @Test func sharesAreSavedWithIfServerRecordUnchangedWhateverThePolicy() {
        let fixture = treeFixture()
        fixture.share("f1")
        var stale = fixture.cloud.record(named: "Share-f1", in: fixture.zone)
        stale?.changeTag = "ct1"
        stale?.fields["cloudkit.title"] = .string("T")
        guard let stale else {
            Issue.record("no share record")
            return
        }
        let outcome = fixture.modify(
            saves: [RecordSave(record: stale, changedKeys: ["cloudkit.title"])], policy: .allKeys)
        #expect(outcome.response.items.map(\.code) == [.serverRecordChanged])
        // With the current tag the owner edits the share's fields, never its participants.
        var current = fixture.cloud.record(named: "Share-f1", in: fixture.zone)
        current?.fields["cloudkit.title"] = .string("T")
        current?.participants = []
        guard let current else {
            Issue.record("no share record with the current tag")
            return
        }
        let saved = fixture.modify(
            saves: [RecordSave(record: current, changedKeys: ["cloudkit.title"])])
        #expect(saved.response.items.first?.savedRecord?.participants.count == 2)
    }

    @Test func aZoneWideShareSavedTwiceIsAnInsertCollision() {
        let fixture = treeFixture()
        let share = shareRecord(fixture, "cloudkit.zoneshare")
        #expect(fixture.modify(saves: [newSave(share)]).response.items.first?.savedRecord != nil)
        #expect(
            fixture.modify(saves: [newSave(share)], policy: .allKeys).response.items.map(\.code)
                == [.serverRecordChanged])
        // The name is reserved for zone-wide shares.
        let impostor = fixture.note("cloudkit.zoneshare")
        #expect(
            fixture.modify(saves: [newSave(impostor)]).response.items.map(\.code)
                == [.invalidArguments])
    }

    @Test func theOwnerDeletingTheShareRecordStopsSharing() {
        let fixture = treeFixture()
        fixture.shareAndAccept()
        let outcome = fixture.modify(deletes: ["Share-f1"], from: fixture.laptop)
        #expect(outcome.response.items.map(\.isDeleted) == [true])
        #expect(
            outcome.noteKinds == ["record.deleted", "share.deleted", "shared-zone.removed"])
        #expect(fixture.serverRecord("f1").share == nil)
        #expect(fixture.cloud.sharedZones(of: "bob").isEmpty)
    }

    @Test func theRootSavedWhileItsShareIsDeletedLosesItsShareField() {
        let fixture = treeFixture()
        fixture.share("f1")
        var root = fixture.serverRecord("f1")
        root.fields["name"] = .string("Renamed")
        let outcome = fixture.modify(
            saves: [RecordSave(record: root, changedKeys: ["name"])], deletes: ["Share-f1"])
        #expect(outcome.response.items.first?.savedRecord?.share == nil)
        #expect(fixture.serverRecord("f1").share == nil)
        #expect(fixture.serverRecord("f1").changeTag == outcome.response.items.first?.savedRecord?
            .changeTag)
    }

    @Test func aClientCannotSetTheShareFieldItself() {
        let fixture = treeFixture()
        fixture.share("f1")
        var root = fixture.serverRecord("f1")
        root.share = nil
        root.fields["name"] = .string("B")
        let saved = fixture.modify(saves: [RecordSave(record: root, changedKeys: ["name"])])
        #expect(saved.response.items.first?.savedRecord?.share == "Share-f1")
        var other = fixture.serverRecord("x1")
        other.share = "Share-f1"
        let ignored = fixture.modify(saves: [RecordSave(record: other, changedKeys: [])])
        #expect(ignored.response.items.first?.savedRecord?.share == nil)
    }

    // MARK: Pushes and the owner's feed

    @Test func shareStepsPushToTheOwnersOtherDevicesAndTheParticipants() {
        let fixture = treeFixture()
        fixture.send(.saveDatabaseSubscription(scope: .privateDatabase), from: fixture.phone)
        fixture.send(.saveDatabaseSubscription(scope: .privateDatabase), from: fixture.laptop)
        fixture.send(.saveDatabaseSubscription(scope: .sharedDatabase), from: fixture.desktop)
        fixture.send(.saveDatabaseSubscription(scope: .sharedDatabase), from: fixture.bobPhone)
        #expect(fixture.share("f1").pushes == ["laptop"])
        #expect(
            fixture.step(.accept, by: fixture.desktop).pushes == ["bobPhone", "laptop", "phone"])
        #expect(
            fixture.step(.removeParticipant(account: "bob"), by: fixture.laptop).pushes
                == ["bobPhone", "desktop", "phone"])
    }

    @Test func theShareRecordIsInTheOwnersZoneFeed() throws {
        let fixture = treeFixture()
        let first = try #require(fixture.fetchZone(after: nil).page)
        fixture.share("f1")
        let page = fixture.fetchZone(after: first.token).page
        #expect(page.map { names($0.records) } == ["Share-f1", "f1"])
        fixture.step(.stop, by: fixture.phone)
        let after = fixture.fetchZone(after: page?.token).page
        #expect(after.map { names($0.records) } == ["f1"])
        #expect(after.map { names($0.deletions) } == ["Share-f1"])
    }

    // MARK: Snapshot

    @Test func theSnapshotShowsSharesAndSharedDatabases() {
        let fixture = CloudFixture()
        fixture.insert(
            fixture.note("f1", type: "Folder"), fixture.note("n1", parent: "f1"),
            fixture.note("x1"))
        fixture.shareAndAccept()
        fixture.share("f1", with: "carol", .readOnly)
        fixture.modify(deletes: ["n1"])
        let userAlice = fixture.cloud.userRecordName(of: "alice")
        let userBob = fixture.cloud.userRecordName(of: "bob")
        expectSnapshot(
            fixture.cloud,
            """
            environment development
            change tags 7
            schema development Folder
            schema development Note
            account alice user \(userAlice) epoch 1 feed 6
              zone App:alice #1 live seq 8
                cloudkit.share Share-f1 ct7 by phone at 1.004s \
            participants=[alice:owner:readWrite:accepted,bob:privateUser:readWrite:accepted,\
            carol:privateUser:readOnly:pending]
                Folder f1 ct5 by phone at 1.002s share=Share-f1
                Note x1 ct3 by phone at 1.001s
                tombstone n1 Note seq 8
            account bob user \(userBob) epoch 1 feed 0 shared-feed 3
              shared App:alice life 1 live seq 5 visible Share-f1,f1 left-view n1
            """)
    }
}

/// Parent cycles (allowed, see ReferenceTests) never confuse the share structure.
@Suite struct SharingCycleTests {
    @Test func aRootInAParentCycleStaysItsOwnShare() {
        let fixture = CloudFixture()
        fixture.makeTree()
        fixture.shareAndAccept()
        var root = fixture.serverRecord("f1")
        root.parent = "n3"
        let outcome = fixture.modify(saves: [RecordSave(record: root, changedKeys: [])])
        #expect(outcome.response.items.first?.savedRecord?.parent == "n3")
        #expect(fixture.sharedNames() == ["Share-f1", "f1", "n1", "n2", "n3"])
        // A record moved into the cycle joins the share; nothing else does.
        var moved = fixture.serverRecord("x1")
        moved.parent = "n3"
        fixture.modify(saves: [RecordSave(record: moved, changedKeys: [])])
        #expect(fixture.sharedNames() == ["Share-f1", "f1", "n1", "n2", "n3", "x1"])
    }
}
