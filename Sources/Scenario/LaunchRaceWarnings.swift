/// Warnings for the app's saves a scenario makes at 0 s, before anything lets time pass.
///
/// Every device launches at time 0, so such a save races the launch: an engine may send it
/// before its setup has found or created the zone (naive drops it, NAIVE-DR-1). The file stays
/// valid; `synclab check` and `run` print one warning per device, at its first such save,
/// when the file runs on naive (its `engine` or `engines` line, or `--engine`): on the other
/// engines the save waits for the setup, and a warning there would be noise.
public enum LaunchRaceWarnings {
    public static let id = DiagnosticID("save-races-launch")

    public static func diagnostics(
        for scenario: ScenarioFile, file: String, engine override: String? = nil
    ) -> [Diagnostic] {
        let engines = override.map { [$0] } ?? scenario.header.storyEngines
        guard engines.contains(where: { $0.hasPrefix("naive") }) else { return [] }
        var warned: [String] = []
        var openTransactions: [String] = []
        var diagnostics: [Diagnostic] = []
        for statement in scenario.timeline {
            switch statement.kind {
            case .wait(let span), .at(let span):
                if span.value.microseconds > 0 { return diagnostics }
            case .waitUntilIdle, .settle:
                return diagnostics
            case .deviceAction(let action):
                let device = action.device.value
                if savesNow(action.action, device: device, openTransactions: &openTransactions),
                    !warned.contains(device)
                {
                    warned.append(device)
                    diagnostics.append(warning(for: action, file: file))
                }
                // The script waits for the action, so the launch has gone on meanwhile.
                if action.action.waits && !action.runsInBackground { return diagnostics }
            case .cloudAction, .trigger, .expectation:
                continue
            }
        }
        return diagnostics
    }

    /// Whether the action saves the store now (outside an open transaction, or its `save`).
    static func savesNow(
        _ action: DeviceAction, device: String, openTransactions: inout [String]
    ) -> Bool {
        let isOpen = openTransactions.contains(device)
        switch action {
        case .begin:
            if !isOpen { openTransactions.append(device) }
            return false
        case .save:
            openTransactions.removeAll { $0 == device }
            return isOpen
        case .rollback, .kill, .loseStore:
            openTransactions.removeAll { $0 == device }
            return false
        case .insert, .update, .delete, .batchDelete:
            return !isOpen
        default:
            return false
        }
    }

    static func warning(for statement: DeviceActionStatement, file: String) -> Diagnostic {
        let written = "\(statement.device.value): \(statement.action.keyword)"
        return Diagnostic(
            severity: .warning, id: id, file: file, location: statement.location,
            message: "'\(written)' at 0 s races the devices' launch: an engine may send the "
                + "save before its setup is done (naive drops it, NAIVE-DR-1); write 'settle' "
                + "before it to start after the launch")
    }
}
