import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TestSupport
import Testing

/// `synclab compare`: each story on each engine, side by side, and the exit status of
/// "every engine met its own expectations".
@Suite struct CompareCommandTests {
    static let story = "Scenarios/compare/01-offline-edit-of-another-key.scenario"

    /// A folder per test: tests of a suite run in parallel, and one folder was shared.
    func scratch(_ text: String, test: String = #function) throws -> URL {
        let folder = try TestSupport.temporaryFolder(
            "compare-cli-" + String(test.filter { $0.isLetter || $0.isNumber }))
        let file = folder.appendingPathComponent("story.scenario")
        try Data(text.utf8).write(to: file)
        return file
    }

    @Test func aStoryRunsOnEachEngineAndTheDisagreementsStandOut() throws {
        let output = try TestSupport.runSynclab(["compare", Self.story, "--engines", "sds,naive"])
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        let text = output.standardOutput
        #expect(text.contains("engines: sds, naive"))
        // The phone ends with its own title on sds and the laptop's on naive.
        #expect(text.contains("≠ phone (alice)"))
        #expect(text.contains("sds    n1 title=\"Groceries!\" body=\"milk, eggs\""))
        #expect(text.contains("naive  n1 title=\"Groceries\" body=\"milk, eggs\""))
        // Expectations of the other engine are not checked on a run.
        #expect(text.contains("line 32: expect [naive] phone: fired NAIVEW-3\n      sds    —\n      naive  pass"))
        #expect(text.contains("≠ weaknesses fired\n      sds    none\n      naive  NAIVEW-3"))
    }

    @Test func anEngineThatMissesItsOwnExpectationFailsTheCommand() throws {
        let file = try scratch("""
            scenario "s"
            engines sds, naive
            entity Note {
              title: String = ""
            }
            account alice
            device phone on alice
            phone: insert Note n1 title="A"
            settle
            expect [naive] phone: fired NAIVEW-1
            expect [sds] phone: n1 title="A"
            """)
        let output = try TestSupport.runSynclab(["compare", file.path, "--engines", "sds,naive"])
        #expect(output.status == 1)
        #expect(output.standardOutput.hasPrefix("FAIL "))
        #expect(output.standardOutput.contains("naive  FAIL: found not fired"))
        // Only sds: its own expectation holds.
        #expect(try TestSupport.runSynclab(["compare", file.path, "--engines", "sds"]).status == 0)
    }

    @Test func aFileWithoutAnEnginesLineIsJudgedOnItsOwnEngineOnly() throws {
        let output = try TestSupport.runSynclab(
            ["compare", "Scenarios/tour/01-first-sync.scenario", "--engines", "sds,naive"])
        #expect(output.status == 0, "\(output.standardOutput)")
        #expect(output.standardOutput.contains("engines: sds, naive"))
        #expect(output.standardOutput.contains("(the file's expectations are not its own)"))
    }

    @Test func anEngineThatCannotRunTheStoryIsListedAsNotRun() throws {
        let output = try TestSupport.runSynclab(
            ["compare", "Scenarios/compare/22-share-revoked.scenario", "--engines", "all"])
        #expect(output.status == 0)
        #expect(output.standardOutput.contains("not run on naive: engine 'naive' does not support 'share'"))
    }

    @Test func withoutEnginesAStoryRunsOnTheEnginesItListsOnly() throws {
        let story = "Scenarios/compare/22-share-revoked.scenario"
        let output = try TestSupport.runSynclab(["compare", story])
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardOutput.contains("  engines: sds, history, outbox\n"))
        #expect(!output.standardOutput.contains("not run on naive"))
        // A file without an 'engines' line still runs on every registered engine.
        let tour = try TestSupport.runSynclab(["compare", "Scenarios/tour/01-first-sync.scenario"])
        #expect(tour.standardOutput.contains("naive-literal"))
    }

    @Test func inputAndUsageErrorsExitTwo() throws {
        let unknown = try TestSupport.runSynclab(["compare", Self.story, "--engines", "sds,naiv"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("unknown engine 'naiv'; did you mean 'naive'"))
        let format = try TestSupport.runSynclab(["compare", Self.story, "--format", "htm"])
        #expect(format.status == 2)
        let twice = try TestSupport.runSynclab(["compare", Self.story, "--engines", "sds,naive,sds"])
        #expect(twice.status == 2)
        #expect(twice.standardError.contains("'--engines' names 'sds' twice"))
        let root = try TestSupport.runSynclab(["compare", Self.story, "--link-root", "../.."])
        #expect(root.status == 2)
        #expect(root.standardError.contains("'--link-root' needs '--out DIR'"))
        let file = try scratch("scenario \"s\"\nengines sds, naive\naccount a\ndevice d on a\nexpect [sds] d: fired NAIVEW-1\n")
        let invalid = try TestSupport.runSynclab(["compare", file.path])
        #expect(invalid.status == 2)
        #expect(invalid.standardError.contains(":5:23: error: unknown rule 'NAIVEW-1'"))
    }

    @Test func jsonAndHTMLAreDocumentsOfTheirFormat() throws {
        let json = try TestSupport.runSynclab(["compare", Self.story, "--format", "json", "--engines", "sds,naive"])
        #expect(json.status == 0)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
        let runs = parsed?.first?["runs"] as? [[String: Any]]
        #expect(runs?.map { $0["engine"] as? String } == ["sds", "naive"])
        #expect(runs?.last?["weaknessesFired"] as? [String] == ["NAIVEW-3"])
        let html = try TestSupport.runSynclab(["compare", Self.story, "--format", "html"])
        #expect(html.status == 0)
        #expect(html.standardOutput.contains("<tr class=\"differs\"><td>phone (alice)</td>"))
        let parser = XMLParser(data: Data(html.standardOutput.utf8))
        #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
        // Rule IDs link to their catalogue's section, from the current folder (no --out).
        #expect(html.standardOutput.contains(
            "<a class=\"rule\" href=\"docs/NAIVE.md#naivew--the-weaknesses-races-and-losses-the-engine-does-not-resolve\">NAIVEW-3</a>"))
        #expect(!html.standardOutput.contains("href=\"#rule-"))
        // Byte-stable: a second run writes the same bytes.
        let again = try TestSupport.runSynclab(["compare", Self.story, "--format", "html"])
        #expect(again.standardOutput == html.standardOutput)
    }
}
