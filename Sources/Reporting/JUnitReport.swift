import Harness

/// JUnit XML for CI systems: one `<testsuite>` per scenario file, one `<testcase>` per
/// expectation, and a runtime failure as one more failing test case.
///
/// CI dashboards (GitHub Actions reporters, GitLab, Jenkins) understand this format, so a
/// failed expectation shows up there with its line and what was found. Times are left out:
/// JUnit means wall time, and SyncLab's output is byte-stable; the simulated time and the
/// seed are properties of each suite instead.
public enum JUnitReport {
    /// The document for several runs, in the order given.
    /// `command` is what the rerun property names (`synclab`, or a lab's own executable).
    public static func xml(for runs: [(path: String, result: RunResult)],
                           command: String = "synclab") -> String {
        xml(for: runs.map { (path: $0.path, run: ReportedRun($0.result)) }, command: command)
    }

    /// The document for runs a tool or a test built by hand.
    public static func xml(for runs: [(path: String, run: ReportedRun)],
                           command: String = "synclab") -> String {
        let tests = runs.reduce(0) { $0 + testCount($1.run) }
        let failures = runs.reduce(0) { $0 + $1.run.expectations.filter { !$0.passed }.count }
        let errors = runs.reduce(0) { $0 + ($1.run.failure == nil ? 0 : 1) }
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"synclab\" tests=\"\(tests)\" failures=\"\(failures)\""
                + " errors=\"\(errors)\">",
        ]
        for (path, run) in runs {
            lines += suite(path: path, run: run, command: command)
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func testCount(_ run: ReportedRun) -> Int {
        run.expectations.count + (run.failure == nil ? 0 : 1)
    }

    private static func suite(path: String, run: ReportedRun, command: String) -> [String] {
        let failures = run.expectations.filter { !$0.passed }.count
        let errors = run.failure == nil ? 0 : 1
        let className = self.className(path)
        var lines = [
            "  <testsuite name=\(attribute(path)) tests=\"\(testCount(run))\""
                + " failures=\"\(failures)\" errors=\"\(errors)\">",
            "    <properties>",
            "      <property name=\"seed\" value=\"\(run.seed)\"/>",
            "      <property name=\"simulatedTime\""
                + " value=\(attribute(ReportTime.text(microseconds: run.endTime.microseconds)))/>",
            "      <property name=\"rerun\""
                + " value=\(attribute("\(command) run \(path) --seed \(run.seed)"))/>",
            "    </properties>",
        ]
        for expectation in run.expectations {
            let name = "line \(expectation.line): \(expectation.wanted)"
            let opening = "    <testcase name=\(attribute(name)) classname=\(attribute(className))"
            if expectation.passed {
                lines.append(opening + "/>")
                continue
            }
            let message = "\(path):\(expectation.line): expectation failed; "
                + "found: \(expectation.found)"
            lines.append(opening + ">")
            lines.append("      <failure message=\(attribute(message)) type=\"expectation\">"
                + XMLText.escape("\(expectation.wanted)\nfound: \(expectation.found)")
                + "</failure>")
            lines.append("    </testcase>")
        }
        if let failure = run.failure {
            let message = "\(path):\(failure.line): runtime error: \(failure.message)"
                + " (at \(ReportTime.text(microseconds: failure.time.microseconds)))"
            lines.append("    <testcase name=\(attribute("line \(failure.line): runtime"))"
                + " classname=\(attribute(className))>")
            lines.append("      <error message=\(attribute(message)) type=\"runtime\">"
                + XMLText.escape(message) + "</error>")
            lines.append("    </testcase>")
        }
        if !run.leftovers.isEmpty {
            lines.append("    <system-out>"
                + XMLText.escape(run.leftovers.map { "leftover: \($0)" }.joined(separator: "\n"))
                + "</system-out>")
        }
        lines.append("  </testsuite>")
        return lines
    }

    /// `Scenarios.tour.01-first-sync`: the path with `/` as `.` and without `.scenario`, the
    /// dotted shape CI tools group test cases by.
    static func className(_ path: String) -> String {
        var name = path
        if name.hasSuffix(".scenario") { name.removeLast(".scenario".count) }
        while name.hasPrefix("./") { name.removeFirst(2) }
        return name.replacingAll("/", with: ".")
    }

    private static func attribute(_ value: String) -> String {
        "\"" + XMLText.escape(value, attribute: true) + "\""
    }
}
