import Foundation
import Reporting
import Testing

/// `synclab run --trace-format chrome`: the Trace Event format Perfetto opens, one track per
/// device and the cloud, requests as spans, rule decisions as instants, stable bytes.
@Suite struct ChromeTraceTests {
    static let text = ChromeTrace.json(scenario: Fixtures.scenario, events: Fixtures.events)

    static func events() throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let root = try #require(object as? [String: Any])
        return try #require(root["traceEvents"] as? [[String: Any]])
    }

    @Test func namesATrackPerDeviceAndOneForTheCloud() throws {
        let events = try Self.events()
        let processes = events.filter { $0["name"] as? String == "process_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(processes == ["phone", "laptop", "cloud", "script"])
        let threads = events.filter { $0["name"] as? String == "thread_name" }
        #expect(threads.allSatisfy { $0["ph"] as? String == "M" && $0["tid"] is Int })
    }

    @Test func aRequestIsASpanInSimulatedMicroseconds() throws {
        let events = try Self.events()
        let span = try #require(events.first {
            $0["ph"] as? String == "X" && $0["name"] as? String == "modifyRecords"
        })
        #expect(span["pid"] as? Int == 1, "the phone's track")
        #expect(span["ts"] as? Int == 200_000)
        #expect(span["dur"] as? Int == 200_000, "sent at 0.2 s, answered at 0.4 s")
        #expect((span["args"] as? [String: Any])?["outcome"] as? String == "answered")
        let lost = try #require(events.first {
            ($0["args"] as? [String: Any])?["outcome"] as? String == "answer lost"
        })
        #expect(lost["ts"] as? Int == 1_800_000)
    }

    @Test func aRuleDecisionIsAnInstantNamedByItsRule() throws {
        let events = try Self.events()
        let decision = try #require(events.first {
            $0["ph"] as? String == "i" && ($0["name"] as? String)?.hasPrefix("SYNC-1 ") == true
        })
        #expect(decision["name"] as? String == "SYNC-1 change.recorded")
        #expect((decision["args"] as? [String: Any])?["rules"] as? [String] == ["SYNC-1"])
        #expect(decision["s"] as? String == "t")
    }

    @Test func theBytesAreStable() {
        #expect(Self.text == ChromeTrace.json(scenario: Fixtures.scenario, events: Fixtures.events))
        #expect(Self.text.hasPrefix("{\"traceEvents\":[\n{\"name\":\"process_name\",\"ph\":\"M\""))
    }
}
