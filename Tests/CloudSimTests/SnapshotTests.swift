import CloudSim
import Kernel
import Testing

/// The whole-cloud snapshot: a golden rendering, and the proof that the same requests give the
/// same cloud, answers and notes in every run.
@Suite struct SnapshotTests {
    /// A short story touching most of the state a snapshot shows.
    static func story(_ fixture: CloudFixture) -> [CloudOutcome] {
        var outcomes: [CloudOutcome] = []
        outcomes.append(
            fixture.send(.saveDatabaseSubscription(scope: .privateDatabase), from: fixture.laptop))
        outcomes.append(
            fixture.send(.saveDatabaseSubscription(scope: .privateDatabase), from: fixture.phone))
        outcomes.append(
            fixture.modify(saves: [
                newSave(fixture.note("f1", ["name": .string("Inbox")], type: "Folder")),
                newSave(
                    fixture.note(
                        "n1",
                        [
                            "title": .string("A \"quoted\" title"), "photo": .asset([1, 2]),
                            "folder": .reference("f1", action: .deleteSelf),
                        ],
                        parent: "f1")),
                newSave(fixture.note("n2", ["pinned": .int(1), "tags": .list([.string("x")])])),
            ]))
        outcomes.append(fixture.modify(deletes: ["f1"], from: fixture.laptop))
        fixture.cloud.reject(recordName: "n9", account: "alice", with: .serverRejectedRequest)
        fixture.cloud.setQuotaFull(account: "bob", true)
        fixture.cloud.throttleNextUpload(account: "bob", records: 2, retryAfter: .seconds(5))
        fixture.cloud.expireTokens(account: "alice")
        outcomes.append(fixture.cloud.userDeleteZone(account: "bob", now: fixture.now))
        return outcomes
    }

    @Test func theSnapshotRendersEveryFactSorted() {
        let fixture = CloudFixture()
        _ = Self.story(fixture)
        let userAlice = fixture.cloud.userRecordName(of: "alice")
        let userBob = fixture.cloud.userRecordName(of: "bob")
        expectSnapshot(
            fixture.cloud,
            """
            environment development
            change tags 3
            schema development Folder name:STRING
            schema development Note folder:REFERENCE photo:ASSET pinned:INT64 tags:LIST<STRING> title:STRING
            account alice user \(userAlice) epoch 2 feed 3
              reject n9 serverRejectedRequest
              subscription private: laptop, phone
              zone App:alice #1 live seq 5
                Note n2 ct3 by phone at 1.003s pinned=1 tags=["x"]
                tombstone f1 Folder seq 4
                tombstone n1 Note seq 5
            account bob user \(userBob) epoch 1 feed 0 quota-full
              next-upload throttle 2 retry-after 5s
            """)
    }

    @Test func theSameRequestsGiveTheSameCloudAnswersAndNotes() {
        let first = CloudFixture()
        let second = CloudFixture()
        let firstOutcomes = Self.story(first)
        let secondOutcomes = Self.story(second)
        #expect(first.cloud.snapshot() == second.cloud.snapshot())
        #expect(first.cloud.snapshot().description == second.cloud.snapshot().description)
        #expect(firstOutcomes.map(\.response) == secondOutcomes.map(\.response))
        #expect(firstOutcomes.map(\.notes) == secondOutcomes.map(\.notes))
        #expect(firstOutcomes.map(\.pushes) == secondOutcomes.map(\.pushes))
    }

    @Test func notesOfARequestComeInRequestOrder() {
        let fixture = CloudFixture()
        let outcome = Self.story(fixture)[2]
        #expect(outcome.noteKinds == ["record.saved", "record.saved", "record.saved"])
        #expect(outcome.notes.map { $0.detail("recordName") } == ["f1", "n1", "n2"])
        #expect(outcome.notes.map { $0.detail("changeTag") } == ["ct1", "ct2", "ct3"])
    }

    @Test func aPurgedZoneShowsAsPurgedAndADeletedOneAsDeleted() {
        let fixture = CloudFixture()
        fixture.createAppZone(for: fixture.desktop)
        _ = fixture.cloud.deleteZone(account: "alice", now: fixture.now)
        _ = fixture.cloud.userDeleteZone(account: "bob", now: fixture.now)
        let zones = fixture.cloud.snapshot().accounts.flatMap(\.zones)
        #expect(zones.map(\.life) == [.deleted, .purged])
        #expect(zones.map(\.records.count) == [0, 0])
    }
}
