import Harness
import Kernel
import Reporting
import Testing

/// JUnit XML that CI tools can read: well-formed, counted right, failures with their line
/// and what was found.
@Suite struct JUnitReportTests {
    static let passing = ReportedRun(
        seed: 1, events: [],
        expectations: [ExpectationResult(line: 3, wanted: "expect phone: pending 0", found: "",
                                         passed: true)],
        endTime: SimTime(microseconds: 2_100_000))

    static let xml = JUnitReport.xml(for: [
        (path: "Scenarios/tour/01-first-sync.scenario", run: passing),
        (path: Fixtures.path, run: Fixtures.run),
        (path: "Scenarios/faults/<odd> & \"name\".scenario", run: ReportedRun(
            seed: 9, events: [],
            expectations: [ExpectationResult(line: 4, wanted: "expect a: b=\"<x>\"",
                                             found: "b=\"\u{1B}[31m\" & more", passed: false)],
            failure: RuntimeFailure(line: 12, time: SimTime(microseconds: 3_600_000_000),
                                    message: "settling did not happen within 1h"),
            endTime: SimTime(microseconds: 3_600_000_000))),
    ])

    @Test func isWellFormed() {
        #expect(XMLCheck.problem(Self.xml) == nil, "\(Self.xml)")
        #expect(Self.xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"))
    }

    @Test func countsTestsFailuresAndErrors() {
        #expect(Self.xml.contains(
            "<testsuites name=\"synclab\" tests=\"5\" failures=\"2\" errors=\"1\">"))
        #expect(Self.xml.contains("<testsuite name=\"Scenarios/tour/01-first-sync.scenario\""
            + " tests=\"1\" failures=\"0\" errors=\"0\">"))
        #expect(Self.xml.components(separatedBy: "<testsuite ").count - 1 == 3)
        #expect(Self.xml.components(separatedBy: "<testcase ").count - 1 == 5)
    }

    @Test func namesEachCaseByLineAndText() {
        #expect(Self.xml.contains("<testcase name=\"line 3: expect phone: pending 0\""
            + " classname=\"Scenarios.tour.01-first-sync\"/>"))
    }

    @Test func failuresCarryTheLineAndWhatWasFound() {
        let message = "Scenarios/fixtures/hand-built.scenario:20: expectation failed; "
            + "found: phone lacks \(Fixtures.record) | &lt;missing&gt;"
        #expect(Self.xml.contains("<failure message=\"\(message)\" type=\"expectation\">"))
    }

    @Test func aRuntimeFailureIsOneMoreFailingCase() {
        #expect(Self.xml.contains("<testcase name=\"line 12: runtime\""))
        #expect(Self.xml.contains("<error message=\"Scenarios/faults/&lt;odd&gt; &amp; "
            + "&quot;name&quot;.scenario:12: runtime error: settling did not happen within 1h"
            + " (at 1h)\" type=\"runtime\">"))
    }

    @Test func escapesEverythingAndDropsForbiddenCharacters() {
        #expect(Self.xml.contains("b=&quot;\u{FFFD}[31m&quot; &amp; more"))
        #expect(!Self.xml.contains("\u{1B}"))
        #expect(Self.xml.contains("<property name=\"rerun\" value=\"synclab run "
            + "Scenarios/faults/&lt;odd&gt; &amp; &quot;name&quot;.scenario --seed 9\"/>"))
        #expect(Self.xml.contains("<system-out>leftover: phone: not running</system-out>"))
    }

    @Test func noRunsIsStillADocument() {
        let empty = JUnitReport.xml(for: [(path: String, run: ReportedRun)]())
        #expect(XMLCheck.problem(empty) == nil)
        #expect(empty.contains("tests=\"0\" failures=\"0\" errors=\"0\""))
    }
}
