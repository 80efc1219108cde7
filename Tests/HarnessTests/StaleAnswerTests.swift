@testable import Harness
import Engines
import Kernel
import Scenario
import SyncContract
import TestSupport
import Testing

/// A request still in flight when its device is killed reaches the cloud, which applies it;
/// its answer goes to the incarnation that sent it, which is gone: it is lost, never handed
/// to the relaunched engine, whose own request numbers start again from the same values.
@Suite struct StaleAnswerTests {
    @Test func anAnswerToAKilledIncarnationIsLostNotTakenByTheNextOne() throws {
        let source = """
            scenario "A save in flight across a kill"
            engine naive
            entity Note {
              title: String = ""
            }
            account alice
            device phone on alice
            cloud latency 1s
            settle
            phone: insert Note n1 title="A"
            wait 200ms
            phone: kill
            phone: launch
            settle
            expect cloud alice: n1 title="A"
            """
        let checked = ScenarioChecker.check(
            source: source, file: "stale.scenario",
            options: EngineRegistry.bundled.validationOptions())
        #expect(!checked.hasErrors)
        let result = ScenarioRunner.run(
            checked.scenario, source: source, options: RunOptions(engines: .bundled))
        #expect(result.failure == nil)
        #expect(result.expectations.allSatisfy { $0.passed })
        let events = result.trace.events
        let kill = try #require(events.firstIndex { $0.kind == "app.killed" })
        let saves = events[..<kill].filter { event in
            event.kind == "request.sent" && event.string("kind") == "modifyRecords"
        }
        let sent = try #require(saves.last?.string("request"))
        let lost = events[kill...].first { event in
            event.actor == "phone" && event.string("request") == sent
                && (event.kind == "response.lost" || event.kind == "response.received")
        }
        #expect(lost?.kind == "response.lost", "\(lost?.jsonLine ?? "no answer")")
    }
}
