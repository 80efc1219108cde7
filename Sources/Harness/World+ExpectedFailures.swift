import Kernel
import Scenario
import SyncContract

/// `expect failure "TEXT"` and `expect DEVICE: load-error "TEXT"`: failures a story means to
/// show, matched by substring, so that showing one does not fail the run.
extension World {
    /// The run's runtime failure, or an action that failed since the last `expect failure`,
    /// with TEXT in its message; a matched runtime failure is cleared and the run goes on.
    func checkExpectedFailure(_ text: String) -> (Bool, String) {
        let actions = failedActions.dropFirst(expectedFailuresChecked)
        expectedFailuresChecked = failedActions.count
        var messages: [String] = actions.map { "\($0.device): \($0.action): \($0.reason)" }
        messages += refusedActionsToExpect
        refusedActionsToExpect = []
        if let failure { messages.insert(failure.message, at: 0) }
        guard messages.contains(where: { $0.contains(text) }) else {
            let found = messages.isEmpty ? "no runtime failure and no failed action" : messages
                .joined(separator: "; ")
            return (false, found)
        }
        if let failure, failure.message.contains(text) {
            record("script", "run.failure-expected", [
                TraceField("line", .int(Int64(failure.line))),
                TraceField("message", .string(failure.message)),
            ])
            self.failure = nil
        }
        return (true, "")
    }

    /// Whether the device's store failed to load with TEXT in one section of the failure's
    /// reason (a header and the items listed under it): a text never spans two sections.
    func checkLoadError(_ device: String, _ text: String) -> (Bool, String) {
        guard deviceIndex[device] != nil else { return (false, "no device") }
        guard let loadFailure = profile.validateSchema?(schema) else {
            return (false, "the store loaded")
        }
        let sections = Self.sections(of: loadFailure)
        if sections.contains(where: { $0.contains(text) }) { return (true, "") }
        return (false, sections.joined(separator: " | ").replacingNewlines())
    }

    /// The failure reason's sections, in its order: each header with its lines.
    static func sections(of failure: StoreLoadFailure) -> [String] {
        var sections: [(header: String, lines: [String])] = []
        for finding in failure.findings {
            if let last = sections.indices.last, sections[last].header == finding.section {
                sections[last].lines.append(finding.line)
            } else {
                sections.append((finding.section, [finding.line]))
            }
        }
        return sections.map { ([$0.header] + $0.lines).joined(separator: "\n") }
    }
}

private extension String {
    /// One line, for the `found:` part of a failed expectation.
    func replacingNewlines() -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " / ")
    }
}

extension World {
    /// Whether the script goes on past a runtime failure to this statement: an `expect
    /// failure` of this run, or an expectation of another engine's runs before one.
    func goesOnAfterFailure(to statement: TimelineStatement) -> Bool {
        guard case .expectation(let expectation) = statement.kind else { return false }
        guard expectation.applies(to: profile.name) else { return true }
        if case .failure = expectation.kind { return true }
        return false
    }
}

extension World {
    /// The warnings `synclab check` gives the file for this run's engine, as text: each item
    /// its store's load failure lists, and the saves that race the devices' launch.
    func warnings(of scenario: ScenarioFile) -> [String] {
        var messages: [String] = []
        if let failure = profile.validateSchema?(schema) {
            messages += failure.findings.map {
                StoreLoadWarnings.message(engine: profile.name, failure: failure, finding: $0)
            }
        }
        messages += LaunchRaceWarnings.diagnostics(
            for: scenario, file: scenario.file, engine: profile.name
        ).map(\.message)
        return messages
    }
}
