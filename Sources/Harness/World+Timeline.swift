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
            let horizon = now.adding(Self.waitBound)
            run(while: { !isIdle(index, before: horizon) }, bound: Self.waitBound,
                what: "'\(device.value)' becoming idle", passesInLine: true)
        case .settle:
            let horizon = now.adding(Self.waitBound)
            run(while: { !isSettled(before: horizon) }, bound: Self.waitBound, what: "settling",
                passesInLine: true)
        case .deviceAction(let action):
            perform(action, waiting: true)
        case .cloudAction(let action):
            perform(action)
        case .trigger(let trigger):
            arm(trigger, line: statement.line)
        case .expectation(let expectation):
            // `expect [naive] …` is checked only on runs of that engine.
            guard expectation.applies(to: profile.name) else { break }
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

    /// Runs `wait SPAN` at `line` as `run(_:results:text:)` runs that statement, for a caller
    /// that would build the statement only for this (the explorer waits before each step).
    func wait(_ span: TimeSpan, line: Int) {
        currentLine = line
        run(until: now.adding(SimTime(microseconds: span.microseconds)))
        if failure == nil { run(until: now) }
    }

    /// Runs a device action at `line` as `run(_:results:text:)` runs its statement, for a
    /// caller that would build the statement only for this (the explorer's drawn actions).
    func run(_ action: DeviceActionStatement, line: Int) {
        currentLine = line
        perform(action, waiting: true)
        if failure == nil { run(until: now) }
    }

    /// What the run leaves behind (`Leftovers`): changes not uploaded, records set aside,
    /// missed pushes, stopped apps, unfired triggers and actions that did not complete.
    func leftovers() -> Leftovers {
        labels.resolveNames(devices: devices)
        // Built at the first name to show (most runs leave nothing behind): at the end of a
        // long run it held a string pair per label on top of the run's peak memory.
        var labelByName: [String: String]?
        func named(_ name: String) -> String {
            if labelByName == nil {
                var table: [String: String] = [:]
                for binding in labels.resolvedBindings() {
                    table[binding.recordName] = binding.label
                }
                labelByName = table
            }
            return labelByName?[name] ?? name
        }
        var account = Leftovers()
        for (index, device) in devices.enumerated() {
            let observation = device.observation
            let models = Self.sortedBytes(observation.pendingModels.map { id in
                observation.recordName(of: id).map(named) ?? "model \(id)"
            })
            let deletions = Self.sortedBytes(observation.pendingDeletions.map(named))
            if !models.isEmpty || !deletions.isEmpty {
                account.notUploaded.append(Leftovers.NotUploaded(
                    device: device.name, models: models, deletions: deletions))
            }
            let rejected = Self.sortedBytes(observation.rejectedRecords.map {
                "\(named($0.record)) (\($0.error))"
            })
            let aside = Self.sortedBytes(observation.keptAsideRecords.map(named))
            if !rejected.isEmpty || !aside.isEmpty {
                account.setAside.append(Leftovers.SetAside(
                    device: device.name, rejected: rejected, keptAside: aside))
            }
            if network.pushMissed[index] { account.missedPushes.append(device.name) }
            if !device.isRunning { account.notRunning.append(device.name) }
        }
        account.unfiredTriggers = unfiredTriggers.map {
            Leftovers.UnfiredTrigger(line: $0.line, device: devices[$0.device].name,
                                     probe: $0.probe, remaining: $0.remaining)
        }
        var unfinished = failedActions
        // Line 0 is the launch at the start of the run, which no statement waits for.
        for (device, action) in waiters.running where action.line > 0 {
            unfinished.append(Leftovers.UnfinishedAction(
                line: action.line, device: devices[device].name, action: action.name,
                reason: "still running when the run ended", failed: false))
        }
        account.unfinishedActions = unfinished.sorted { $0.line < $1.line }
        return account
    }

    /// Sorted by UTF-8 bytes: the same order in every process and locale.
    static func sortedBytes(_ names: [String]) -> [String] {
        names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
