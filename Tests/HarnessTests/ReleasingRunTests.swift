import Engines
@testable import Harness
import Scenario
import SyncContract
import TestSupport
import Testing

/// A run that releases each timeline statement once it has run (`ScenarioRunner
/// .run(releasing:)`, what `synclab bench --download` uses) gives what a plain run gives, and
/// a statement's text is read from the source without an array of its lines.
@Suite struct ReleasingRunTests {
    static let files = TestSupport.scenarioFiles(under: "Scenarios/tour")
        + TestSupport.scenarioFiles(under: "Scenarios/faults") + TestSupport.scenarioFiles(under: "Scenarios/sharing")

    @Test func thereAreScenariosToCompare() {
        #expect(Self.files.count >= 4)
    }

    @Test(arguments: files)
    func aReleasingRunGivesThePlainRunsResult(_ path: String) throws {
        let source = try TestSupport.read(path)
        let checked = ScenarioChecker.check(
            source: source, file: path, options: EngineRegistry.bundled.validationOptions())
        try #require(!checked.hasErrors)
        let options = RunOptions(engines: .bundled)
        let plain = ScenarioRunner.run(checked.scenario, source: source, options: options)
        // A tree of its own, handed over: the run holds its only copy and releases it.
        let own = ScenarioChecker.check(
            source: source, file: path, options: EngineRegistry.bundled.validationOptions()).scenario
        let released = ScenarioRunner.run(releasing: consume own, source: source, options: options)
        #expect(released.trace == plain.trace)
        #expect(released.trace.jsonLines() == plain.trace.jsonLines())
        #expect(released.expectations.map(\.wanted) == plain.expectations.map(\.wanted))
        #expect(released.expectations.map(\.passed) == plain.expectations.map(\.passed))
        #expect(released.leftovers == plain.leftovers)
        #expect(released.failure?.description == plain.failure?.description)
        #expect(released.firedRules == plain.firedRules)
        #expect(released.endTime == plain.endTime)
        #expect(released.finalState == plain.finalState)
    }

    @Test func theStatementTimeMarksAreThoseOfAPlainRun() throws {
        let source = """
            scenario "t"
            entity Note {
              title: String = ""
            }
            account alice
            device phone on alice
            device laptop on alice
            laptop: offline
            phone: insert Note n1 title="a"
            settle
            laptop: online
            settle
            expect laptop: count Note = 1
            """
        let checked = ScenarioChecker.check(
            source: source, file: "t", options: EngineRegistry.bundled.validationOptions())
        try #require(!checked.hasErrors)
        let marks = Marks()
        var options = RunOptions(engines: .bundled)
        options.beforeStatement = { marks.add($0) }
        let result = ScenarioRunner.run(releasing: checked.scenario, source: source, options: options)
        #expect(result.passed)
        #expect(marks.values == [0, 1, 2, 3, 4, 5, 6])
        #expect(result.expectations.map(\.wanted) == ["expect laptop: count Note = 1"])
    }

    @Test func withoutTheFinalStateTheRunIsTheSame() throws {
        let path = try #require(Self.files.first)
        let source = try TestSupport.read(path)
        let checked = ScenarioChecker.check(
            source: source, file: path, options: EngineRegistry.bundled.validationOptions())
        var options = RunOptions(engines: .bundled)
        let plain = ScenarioRunner.run(checked.scenario, source: source, options: options)
        options.recordFinalState = false
        let lean = ScenarioRunner.run(checked.scenario, source: source, options: options)
        #expect(lean.trace == plain.trace)
        #expect(lean.passed == plain.passed)
        #expect(lean.finalState.devices.isEmpty && lean.finalState.accounts.isEmpty)
        #expect(!plain.finalState.devices.isEmpty)
    }

    /// `SourceLines` gives what splitting the text into lines gave, for lines in any order,
    /// past the end, with comments, strings holding '#' and CRLF line ends (one character
    /// in Swift, so not a line break to either).
    @Test func statementTextIsTheSplitLinesText() {
        let text = "a: b # c\n  wait 5s  \r\nphone: insert Note n1 title=\"x # y\"  # z\n\n\texpect x\n"
        let split = text.split(separator: "\n", omittingEmptySubsequences: false)
        var lines = SourceLines(text)
        let order = [1, 2, 3, 4, 5, 6, 7, 9, 3, 1, 5, 5, 0, -1, 100]
        for line in order {
            let expected = line >= 1 && line - 1 < split.count
                ? ScenarioRunner.statementText(split[line - 1]) : ""
            #expect(lines.statementText(line: line) == expected, "line \(line)")
        }
        var crlf = SourceLines("x: y\r\nwait 1s\r\n")
        let crlfSplit = "x: y\r\nwait 1s\r\n".split(separator: "\n", omittingEmptySubsequences: false)
        #expect(crlf.statementText(line: 1) == ScenarioRunner.statementText(crlfSplit[0]))
        #expect(crlf.statementText(line: 2) == (crlfSplit.count > 1 ? ScenarioRunner.statementText(crlfSplit[1]) : ""))
    }

    final class Marks: @unchecked Sendable {
        // Written by the run's thread only, read after it.
        private(set) var values: [Int] = []
        func add(_ index: Int) { values.append(index) }
    }
}
