import Kernel
import Scenario

extension World {
    /// Launches every device at time 0, in declaration order (each synchronizes on launch).
    func start() {
        for index in devices.indices {
            launch(index, wait: false)
        }
    }

    /// Runs one timeline statement at the script's current time.
    func run(_ statement: TimelineStatement, results: inout [ExpectationResult], text: String) {
        currentLine = statement.line
        switch statement.kind {
        case .wait(let span):
            run(until: now.adding(SimTime(microseconds: span.value.microseconds)))
        case .at(let span):
            let target = SimTime(microseconds: span.value.microseconds)
            if target < now {
                fail("'at \(span.value)' is in the past (the script is at \(now))")
            } else {
                run(until: target)
            }
        case .waitUntilIdle(let device):
            guard let index = deviceIndex[device.value] else { return }
            run(while: { !isIdle(index) }, bound: Self.waitBound, what: "'\(device.value)' becoming idle")
        case .settle:
            run(while: { !isSettled }, bound: Self.waitBound, what: "settling")
        case .deviceAction(let action):
            perform(action, waiting: true)
        case .cloudAction(let action):
            perform(action)
        case .trigger(let trigger):
            arm(trigger, line: statement.line)
        case .expectation(let expectation):
            let outcome = check(expectation.kind)
            let result = ExpectationResult(
                line: statement.line,
                wanted: text,
                found: outcome.passed ? "" : outcome.found,
                passed: outcome.passed
            )
            record("script", "expectation", [TraceField("line", .int(Int64(statement.line))),
                                             TraceField("passed", .bool(result.passed)),
                                             TraceField("found", .string(result.found))])
            results.append(result)
        }
        // Events due exactly now run before the script's next statement.
        if failure == nil { run(until: now) }
    }

    /// What the run leaves behind: pending changes, undelivered pushes, unfired triggers.
    func leftovers() -> [String] {
        var notes: [String] = []
        for (index, device) in devices.enumerated() {
            let pending = device.disk.syncData.pendingCount
            if pending > 0 { notes.append("\(device.name): \(pending) model(s) with changes not uploaded") }
            if pushMissed[index] { notes.append("\(device.name): a push missed while offline") }
            if !device.isRunning { notes.append("\(device.name): not running") }
        }
        for trigger in unfiredTriggers {
            notes.append("line \(trigger.line): trigger at '\(trigger.probe)' never fired")
        }
        return notes
    }
}
