import Foundation
import TestSupport
import Testing

/// The HTML report of a real run steps through the states the harness recorded, the same
/// bytes in two processes; `run --trace-format chrome` writes a trace Perfetto opens.
@Suite struct ReportStepsCLITests {
    static let path = "Scenarios/tour/01-first-sync.scenario"

    @Test func theHTMLReportStepsThroughRecordedStates() throws {
        let folder = try TestSupport.temporaryFolder("report-steps")
        var pages: [String] = []
        for name in ["a", "b"] {
            let out = folder.appendingPathComponent(name)
            let output = try TestSupport.runSynclab(
                ["report", Self.path, "--format", "html", "--out", out.path])
            #expect(output.status == 0, "\(output.standardError)")
            pages.append(try String(
                contentsOf: out.appendingPathComponent("01-first-sync.html"), encoding: .utf8))
        }
        #expect(pages[0] == pages[1], "two processes wrote different reports")
        let html = pages[0]
        #expect(html.contains("<section id=\"step-through\""))
        let states = html.components(separatedBy: "<div class=\"state\" id=\"state-").count - 1
        #expect(states > 2, "the run's store and cloud change over time (\(states) states)")
        #expect(html.contains("Pending: <code>n1</code>"), "the phone's save waits to upload")
        #expect(html.contains("The cloud of alice ended with 1 record: <code>n1 Note"))
        // The launches' account checks are folded under the diagram, out of its story.
        let fold = try #require(html.range(of: "<details id=\"launch-traffic\">"))
        let timeline = try #require(html.range(of: "<section id=\"timeline\">"))
        #expect(!html[timeline.upperBound..<fold.lowerBound].contains("accountStatus"))
        #expect(html[fold.upperBound...].contains("r1 accountStatus"))
        let outcome = try #require(html.range(of: "id=\"outcome\""))
        let setup = try #require(html.range(of: "id=\"setup\""))
        #expect(outcome.lowerBound < setup.lowerBound)
    }

    @Test func runWritesAChromeTrace() throws {
        let folder = try TestSupport.temporaryFolder("chrome-trace")
        let target = folder.appendingPathComponent("trace.json")
        let output = try TestSupport.runSynclab(
            ["run", Self.path, "--trace-out", target.path, "--trace-format", "chrome"])
        #expect(output.status == 0, "\(output.standardError)")
        let data = try Data(contentsOf: target)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        let names = events.filter { $0["name"] as? String == "process_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(names == ["phone", "laptop", "cloud", "script"])
        #expect(events.contains { $0["ph"] as? String == "X" && ($0["dur"] as? Int ?? 0) > 0 })
        #expect(events.contains { $0["ph"] as? String == "i" && $0["cat"] as? String == "rule" })
        let bad = try TestSupport.runSynclab(
            ["run", Self.path, "--trace-out", target.path, "--trace-format", "chrom"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("did you mean 'chrome'"), "\(bad.standardError)")
    }
}
