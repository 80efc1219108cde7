import Engines
import SDS
import SyncContract
@testable import Harness
import Kernel
import Scenario
import Testing
import TestSupport

/// A kill at any probe point of any bundled scenario, followed by a launch and `settle`,
/// leaves no saved change behind: pending changes are on disk, so the next launch uploads
/// them. Where changes do stay pending, a rule holds them, and the test names it.
@Suite struct KillSweepTests {
    /// The bundled sds scenarios (other engines answer to the contract suite); a file that
    /// does not check stays in, so the test reports it.
    static let files = TestSupport.scenarioFiles().filter { !$0.contains("/explore/") }.filter { path in
        guard let source = try? TestSupport.read(path) else { return true }
        let checked = ScenarioChecker.check(
            source: source, file: path, options: EngineRegistry.bundled.validationOptions())
        return checked.hasErrors || checked.scenario.header.effectiveEngine == SDSEngine.name
    }

    /// Rules that keep changes pending on purpose (set aside, paused, stopped, not synchronized here).
    static let holdingRules: Set<String> = [
        "SCHEMA-4", "ERR-7", "ERR-4", "ERR-5", "ERR-2", "LIFE-1", "LIFE-6", "ERR-6", "LIM-5",
        "EXT-2", "EXT-3", "ACCT-2", "SYNC-7",
    ]

    @Test(arguments: files)
    func killAtEveryProbePointLosesNothing(_ path: String) throws {
        let source = try TestSupport.read(path)
        let checked = ScenarioChecker.check(source: source, file: path, options: EngineRegistry.bundled.validationOptions())
        guard !checked.hasErrors else {
            Issue.record("\(path) does not check")
            return
        }
        let scenario = checked.scenario
        try #require(scenario.header.effectiveEngine == SDSEngine.name)
        let baseline = pendingAfterHeal(scenario, source: source, kill: nil)
        var problems: [String] = []
        for device in scenario.devices where device.extensionOf == nil {
            for probe in SDSEngine.probePoints {
                let outcome = pendingAfterHeal(scenario, source: source, kill: (device.name.value, probe))
                for (name, pending) in outcome.pending.sorted(by: { $0.key < $1.key }) {
                    let before = baseline.pending[name] ?? 0
                    guard pending > before else { continue }
                    let holding = outcome.rules.intersection(Self.holdingRules).sorted()
                    if holding.isEmpty {
                        problems.append("kill of \(device.name.value) at \(probe): \(name) keeps "
                            + "\(pending) pending change(s) after launch and settle, and no rule holds them")
                    }
                }
            }
        }
        #expect(problems.isEmpty, "\(path):\n\(problems.joined(separator: "\n"))")
    }

    /// Runs the scenario with a kill at the first time `device` reaches `probe`, then heals:
    /// every device online, launched, synchronized, and the world settled.
    private func pendingAfterHeal(
        _ scenario: ScenarioFile, source: String, kill: (device: String, probe: String)?
    ) -> (pending: [String: Int], rules: Set<String>) {
        var scenario = scenario
        if let kill {
            let start = SourceLocation(line: 1, column: 1)
            let device = Located(kill.device, at: start)
            let action = DeviceActionStatement(device: device, action: .kill, location: start)
            let trigger = Trigger(
                device: device, probe: Located(kill.probe, at: start), occurrence: Located(1, at: start),
                action: .device(action), location: start)
            scenario.timeline.insert(TimelineStatement(.trigger(trigger), location: start), at: 0)
        }
        let world = World(scenario: scenario, seed: scenario.header.effectiveSeed, options: RunOptions(engines: .bundled, recordTrace: false))
        var results: [ExpectationResult] = []
        world.start()
        world.run(until: .zero)
        for statement in scenario.timeline where world.failure == nil {
            guard case .expectation = statement.kind else {
                world.run(statement, results: &results, text: "")
                continue
            }
        }
        // Heal: no more triggers, every device online and running, then Sync Now on each.
        world.failure = nil
        world.triggers.removeAll()
        for index in world.devices.indices where world.failure == nil {
            let device = world.devices[index]
            if !device.isOnline {
                world.setOnline(true, device: index)
                world.deliver(.networkChanged(online: true), to: index)
            }
            if !device.isRunning { world.launch(index, wait: true) }
        }
        for index in world.devices.indices where world.failure == nil && world.devices[index].isRunning {
            let waiter = world.makeWaiter(for: index, action: "sync")
            world.deliver(.appCall(.syncNow, waiter: waiter), to: index)
            world.waitFor(waiter, what: "a heal sync")
        }
        world.run(while: { !world.isSettled }, bound: World.waitBound, what: "settling after the heal",
                  passesInLine: true)
        var pending: [String: Int] = [:]
        // A device signed out cannot upload: its changes wait for an account (ACCT-1).
        for device in world.devices where device.account != nil {
            pending[device.name] = device.observation.pendingCount
        }
        var rules: Set<String> = []
        for fired in world.firedRules { rules.formUnion(fired) }
        return (pending, rules)
    }
}
