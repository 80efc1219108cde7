import Kernel
import Scenario

/// Reduces a seed's fault phase to a minimal one that still violates the same check the
/// same way (unexplained stays unexplained): whole groups of steps first, in halving chunks
/// (a fault goes with its lifting, an insert with every step that uses its label), then
/// devices, single liftings, the values of inserts and updates, and last the waits between
/// steps (each cut to a second where the violation allows). Every candidate is a
/// full replay; their number is bounded by `ExploreOptions.shrinkRuns`.
struct Shrinker {
    struct Candidate: Hashable {
        var steps: [ChaosStep]
        var removedDevices: [String]
    }

    let explorer: Explorer
    let seed: UInt64
    let check: InvariantCheck
    let unexplained: Bool
    private(set) var runs = 0
    private var plans: [[String]: ChaosPlan] = [:]

    init(explorer: Explorer, seed: UInt64, check: InvariantCheck, unexplained: Bool) {
        self.explorer = explorer
        self.seed = seed
        self.check = check
        self.unexplained = unexplained
    }

    mutating func shrink() -> ShrunkScenario? {
        let original = explorer.drawnRun(seed: seed, options: explorer.options)
        guard holds(original) else { return nil }
        var best = Candidate(steps: original.steps, removedDevices: [])
        best = removeGroups(best)
        best = removeDevices(best)
        best = removeLiftings(best)
        best = removeAssignments(best)
        best = removeGroups(best)
        best = tightenWaits(best)
        best.steps = Self.renumbered(best.steps, prefix: explorer.plan.labelPrefix)
        let final = replay(best)
        let violations = final.check().filter { matches($0) }
        let name = "seed-\(seed)-\(check.rawValue).scenario"
        let text = ScenarioWriter.write(
            run: final, original: explorer.plan, seed: explorer.worldSeed(of: seed),
            removedDevices: best.removedDevices, violations: violations,
            summary: "\(check.rawValue)\(unexplained ? " (new finding)" : " (explained)"), "
                + "shrunk from \(original.steps.count) to \(best.steps.count) steps")
        let reproduces = PlainReplay.fails(
            text: text, file: name, seed: explorer.worldSeed(of: seed),
            options: explorer.options)
        let report = ShrinkReport(
            file: name, check: check, stepsBefore: original.steps.count,
            stepsAfter: best.steps.count, removedDevices: best.removedDevices, runs: runs,
            reproduces: reproduces)
        return ShrunkScenario(report: report, text: text)
    }

    /// The steps with their drawn labels numbered from 1 in the order they are bound, so a
    /// shrunk scenario reads `c1, c2` rather than `c17, c42` (names do not change a run).
    static func renumbered(_ steps: [ChaosStep], prefix: String) -> [ChaosStep] {
        var names: [String: String] = [:]
        for step in steps {
            guard let label = step.action.boundLabel, names[label] == nil else { continue }
            names[label] = prefix + String(names.count + 1)
        }
        return steps.map { step in
            var renamed = step
            renamed.action = step.action.renamingLabels(names)
            return renamed
        }
    }

    // MARK: Judging candidates

    private func matches(_ violation: InvariantViolation) -> Bool {
        violation.check == check && violation.isExplained != unexplained
    }

    private func holds(_ run: ChaosRun) -> Bool {
        run.check().contains(where: matches)
    }

    private var budgetLeft: Bool { runs < explorer.options.shrinkRuns }

    /// Replays a candidate (one run of the budget) and tells whether the violation persists.
    private mutating func test(_ candidate: Candidate) -> Bool {
        guard budgetLeft else { return false }
        runs += 1
        return holds(replay(candidate))
    }

    private mutating func replay(_ candidate: Candidate) -> ChaosRun {
        explorer.replayedRun(
            seed: seed, plan: plan(without: candidate.removedDevices), steps: candidate.steps)
    }

    private mutating func plan(without devices: [String]) -> ChaosPlan {
        guard !devices.isEmpty else { return explorer.plan }
        if let plan = plans[devices] { return plan }
        var scenario = explorer.plan.scenario
        scenario.devices.removeAll { devices.contains($0.name.value) }
        let plan = ChaosPlan(scenario: scenario, source: explorer.source)
        plans[devices] = plan
        return plan
    }

    // MARK: Passes

    /// Group identifiers in the order their first step runs.
    private func groups(_ steps: [ChaosStep]) -> [Int] {
        var seen: Set<Int> = []
        return steps.compactMap { seen.insert($0.group).inserted ? $0.group : nil }
    }

    /// The steps left once `removed` groups go, with every group that uses a label one of
    /// them bound (and so on, transitively).
    static func steps(_ steps: [ChaosStep], without removed: Set<Int>) -> [ChaosStep] {
        var removed = removed
        var labels: Set<String> = []
        // Each pass removes at least one more group or stops, so this ends.
        for _ in 0...steps.count {
            var changed = false
            for step in steps where removed.contains(step.group) {
                if let label = step.action.boundLabel, labels.insert(label).inserted {
                    changed = true
                }
            }
            for step in steps where !removed.contains(step.group) {
                if step.action.usedLabels.contains(where: labels.contains) {
                    removed.insert(step.group)
                    changed = true
                }
            }
            if !changed { break }
        }
        return steps.filter { !removed.contains($0.group) }
    }

    private mutating func removeGroups(_ start: Candidate) -> Candidate {
        var best = start
        var chunk = max(1, groups(best.steps).count / 2)
        while budgetLeft {
            var progress = false
            var position = 0
            while budgetLeft {
                let ids = groups(best.steps)
                guard position < ids.count else { break }
                let slice = Set(ids[position..<min(position + chunk, ids.count)])
                var candidate = best
                candidate.steps = Self.steps(best.steps, without: slice)
                if test(candidate) {
                    best = candidate
                    progress = true
                } else {
                    position += chunk
                }
            }
            if chunk == 1 && !progress { break }
            if !progress { chunk = max(1, chunk / 2) }
        }
        return best
    }

    private mutating func removeDevices(_ start: Candidate) -> Candidate {
        var best = start
        let pinned = PlainReferences.devices(in: explorer.plan.scenario.timeline)
        for device in explorer.plan.devices where !pinned.contains(device) {
            guard budgetLeft else { break }
            let groups = Set(best.steps.filter { $0.action.device == device }.map(\.group))
            var candidate = best
            candidate.steps = Self.steps(best.steps, without: groups)
            candidate.removedDevices.append(device)
            if test(candidate) { best = candidate }
        }
        return best
    }

    /// Tries each fault's lifting alone: without it the fault lasts until the heal phase.
    private mutating func removeLiftings(_ start: Candidate) -> Candidate {
        var best = start
        var index = 0
        while index < best.steps.count && budgetLeft {
            let step = best.steps[index]
            let isLifting = best.steps[..<index].contains { $0.group == step.group }
            var candidate = best
            candidate.steps.remove(at: index)
            if isLifting && test(candidate) {
                best = candidate
            } else {
                index += 1
            }
        }
        return best
    }

    /// Shortens each wait between steps to `shortWait` (moving every later step earlier by
    /// the same amount) where the violation persists.
    private mutating func tightenWaits(_ start: Candidate) -> Candidate {
        var best = start
        var previous = SimTime.zero
        for index in best.steps.indices {
            guard budgetLeft else { break }
            let gap = best.steps[index].offset.microseconds - previous.microseconds
            if gap > Self.shortWait.microseconds {
                let cut = SimTime(microseconds: gap - Self.shortWait.microseconds)
                var candidate = best
                for later in index..<candidate.steps.count {
                    candidate.steps[later].offset = SimTime(
                        microseconds: candidate.steps[later].offset.microseconds - cut.microseconds)
                }
                if test(candidate) { best = candidate }
            }
            previous = best.steps[index].offset
        }
        return best
    }

    /// The wait `tightenWaits` tries between two steps.
    static let shortWait = SimTime.seconds(1)

    /// Tries each value of each insert and update alone (keeping what an insert must set).
    private mutating func removeAssignments(_ start: Candidate) -> Candidate {
        var best = start
        for index in best.steps.indices {
            var position = 0
            while budgetLeft, let shorter = without(best.steps[index].action, at: position) {
                var candidate = best
                candidate.steps[index].action = shorter.action
                if shorter.removable && test(candidate) {
                    best = candidate
                } else {
                    position += 1
                }
            }
        }
        return best
    }

    /// The action without its assignment at `position`, and whether it may go; nil past the
    /// last assignment.
    private func without(_ action: ChaosAction, at position: Int)
        -> (action: ChaosAction, removable: Bool)?
    {
        switch action {
        case .insert(let device, let entity, let label, var values):
            guard position < values.count else { return nil }
            let key = values[position].key
            let declaration = explorer.plan.entity(named: entity)
            let attribute = declaration?.attributes.first { $0.name.value == key }
            let isIdentity = declaration?.identity.contains { $0.value == key } ?? true
            let optional = attribute.map { $0.isOptional || $0.defaultValue != nil } ?? false
            values.remove(at: position)
            return (.insert(device: device, entity: entity, label: label, values: values),
                optional && !isIdentity)
        case .update(let device, let label, var values):
            guard position < values.count else { return nil }
            values.remove(at: position)
            return (.update(device: device, label: label, values: values), !values.isEmpty)
        default:
            return nil
        }
    }
}
