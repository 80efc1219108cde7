import CloudSim
import Engines
import Harness
import Kernel
import Scenario
import SyncContract
import Testing

/// Issue 13 in the world: the zone-fault statements act on the zones the cloud holds for the
/// account (all of them, or the one named), and the engine profile — not the cloud — names
/// the rule a neutral cloud note shows.
@Suite struct ZoneFaultWorldTests {
    static let header = """
        scenario "t"
        entity Note {
          title: String = ""
        }
        account alice
        device phone on alice
        device laptop on alice
        cloud latency 0ms
        phone: insert Note n1 title="one"
        settle

        """

    static func cloudNotes(_ result: RunResult, _ kind: String) -> [[String: String]] {
        result.trace.events.filter { $0.actor == "cloud" && $0.kind == kind }.map { event in
            var fields: [String: String] = [:]
            for field in event.details { if case .string(let text) = field.value { fields[field.key] = text } }
            return fields
        }
    }

    @Test func resetEncryptedDataDeletesTheAccountsZoneWithThatReason() {
        let result = RuntimeRobustnessTests.run(Self.header + "cloud: reset-encrypted-data alice\nsettle\n")
        #expect(result.failure == nil, "\(result.failure?.description ?? "")")
        let deleted = Self.cloudNotes(result, "zone.deleted")
        #expect(deleted.map { $0["reason"] } == ["encryptedDataReset"])
        #expect(deleted.first?["zone"] == "SwiftDataSync:alice")
        #expect(result.trace.events.contains {
            $0.kind == "cloud.action" && $0.details.contains { $0.value == .string("reset-encrypted-data") }
        })
    }

    @Test func aZoneFaultCanNameTheZoneOrTheCollectionOfALabel() {
        let named = RuntimeRobustnessTests.run(Self.header + """
            cloud: delete-zone alice zone Other
            cloud: user-delete-zone alice collection n1
            settle
            """)
        #expect(named.failure == nil, "\(named.failure?.description ?? "")")
        #expect(Self.cloudNotes(named, "zone.delete-skipped").map { $0["zone"] } == ["Other:alice"])
        let purged = Self.cloudNotes(named, "zone.deleted")
        #expect(purged.first?["zone"] == "SwiftDataSync:alice")
        #expect(purged.first?["reason"] == "purged")
    }

    /// [CKError.Code] `zoneBusy` with a retry-after on the zone fetches of the account.
    @Test func aBusyZoneFailsZoneFetchesWithRetryAfter() {
        let result = RuntimeRobustnessTests.run(Self.header + """
            cloud: zone-busy alice for 5s
            laptop: sync
            settle
            """)
        #expect(result.failure == nil, "\(result.failure?.description ?? "")")
        let answers = result.trace.events.filter {
            $0.actor == "cloud" && $0.kind == "request.handled"
                && $0.details.contains { $0.value == .string("fetchZoneChanges") }
        }
        let texts = answers.map { "\($0.details)" }
        #expect(texts.contains { $0.contains("zoneBusy") && $0.contains("retry after") }, "\(texts)")
    }

    @Test func aCollectionWithoutARecordIsARuntimeFailure() {
        let result = RuntimeRobustnessTests.run("""
            scenario "t"
            entity Note {
              title: String = ""
            }
            account alice
            device phone on alice
            phone: insert Note n1 title="one"
            cloud: delete-zone alice collection n1
            """)
        #expect(result.failure?.message.contains("label 'n1' has no record") == true,
                "\(result.failure?.description ?? "no failure")")
    }

    /// The cloud's notes are neutral; sds's profile names LIM-1, naive's NAIVE-4 and NAIVEW-1.
    @Test func theProfileNamesTheRuleOfANeutralNote() throws {
        let recreated = CloudNote(
            kind: "record.recreated",
            details: [NoteField("zone", "Z:alice"), NoteField("recordName", "n1"),
                      NoteField("device", "phone"), NoteField("policy", "changedKeys")])
        let overwritten = CloudNote(kind: "record.overwritten")
        let sds = try #require(EngineRegistry.bundled.profile(named: "sds"))
        let naive = try #require(EngineRegistry.bundled.profile(named: "naive"))
        #expect(recreated.rules.isEmpty)
        #expect(sds.rules(for: recreated) == ["LIM-1"])
        #expect(sds.rules(for: overwritten) == [])
        var allKeys = recreated
        allKeys.details[3] = NoteField("policy", "allKeys")
        #expect(sds.rules(for: allKeys) == [])
        #expect(naive.rules(for: recreated) == ["NAIVE-4"])
        #expect(naive.rules(for: overwritten) == ["NAIVEW-1"])
    }
}
