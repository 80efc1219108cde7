import Checkers
import Kernel
import Scenario

/// Writes a run of a chaos file as a plain scenario: the file's own setup and timeline (its
/// chaos lines commented out, the seed fixed), then the fault phase's steps as ordinary
/// statements with the waits between them, the heal phase, and the checks that failed as
/// `expect` lines, so `synclab run` fails on it today and passes once the cause is fixed.
enum ScenarioWriter {
    static func write(
        run: ChaosRun, original: ChaosPlan, seed: UInt64, removedDevices: [String],
        violations: [InvariantViolation], summary: String
    ) -> String {
        let scenario = original.scenario
        var lines = original.lines
        for line in scenario.chaos.lines where line - 1 < lines.count {
            lines[line - 1] = "# (explored) " + trimmed(lines[line - 1])
        }
        for device in removedDevices {
            guard let declaration = scenario.device(named: device) else { continue }
            let line = declaration.location.line - 1
            lines[line] = "# (removed by shrinking) " + trimmed(lines[line])
        }
        var header = ["about \"" + escaped(
            "Shrunk by synclab explore from \(scenario.file), seed \(seed): \(summary).") + "\""]
        if let statement = scenario.header.seed {
            lines[statement.location.line - 1] = "seed \(seed)"
        } else {
            header.append("seed \(seed)")
        }
        // The run's engine (`--engine` may override the file's): the written file must name
        // it, or `synclab run` would replay it on another engine.
        let engine = run.world.profile.name
        if engine != scenario.header.effectiveEngine {
            if let statement = scenario.header.engine {
                lines[statement.location.line - 1] = "engine \(engine)"
            } else {
                header.append("engine \(engine)")
            }
        }
        let titleLine = scenario.header.title?.location.line ?? 0
        lines.insert(contentsOf: header, at: min(titleLine, lines.count))
        while let last = lines.last, trimmed(last).isEmpty { lines.removeLast() }
        lines.append("")
        lines.append("# ---- fault phase: seed \(seed) of \(scenario.file) ----")
        var previous = SimTime.zero
        for step in run.steps {
            if step.offset > previous {
                let gap = step.offset.microseconds - previous.microseconds
                lines.append(ChaosAction.wait(TimeSpan(microseconds: gap)).text)
                previous = step.offset
            }
            lines.append(step.action.text)
        }
        lines.append("# ---- heal phase: every fault lifted, then settle ----")
        lines += run.healActions.map(\.text)
        lines.append("# ---- the checks that fail today and pass once the cause is fixed ----")
        var expectations: [String] = []
        for violation in violations {
            lines.append("# " + violation.check.rawValue + ": " + oneLine(violation.message))
            for expectation in violation.expectations where !expectations.contains(expectation) {
                expectations.append(expectation)
            }
        }
        if violations.contains(where: { $0.check == .liveness }) {
            lines.append("# liveness: the heal phase's 'settle' above must end within "
                + "\(run.plan.healBudget)")
        }
        lines += expectations
        return lines.joined(separator: "\n") + "\n"
    }

    private static func trimmed(_ line: String) -> String {
        Substring(line).trimmingBlanks()
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0 == "\n" ? " " : $0 })
    }

    static func escaped(_ text: String) -> String {
        ValueDescription.escaped(text)
    }
}
