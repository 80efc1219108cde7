import CloudSim
import Device
import Kernel
import LocalStore
import Scenario
import SyncContract

/// Draws one run's fault phase from its seed, step by step, looking at the world as it goes
/// (an update picks a model the device holds, a kill a device that runs), and runs each
/// step as it is drawn. The run keeps the steps, so the same phase can be replayed without
/// the draw, shortened by the shrinker, or written out as a plain scenario.
///
/// Randomness comes from four named streams of the seed — `chaos/times` (intervals),
/// `chaos/ops` (devices, operations, models), `chaos/values` and `chaos/faults` — so the
/// world's own streams (latency, pushes, record names) draw exactly as in any other run.
struct ChaosDraw {
    private var times: Xoshiro256StarStar
    private var operations: Xoshiro256StarStar
    private var values: Xoshiro256StarStar
    private var faults: Xoshiro256StarStar
    /// Liftings of faults that struck, due later, in the order they are due.
    private var liftings: [ChaosStep] = []
    private var nextLabel = 1
    private var nextGroup = 1
    private var fullQuotas: [String] = []
    private var rejected: [String] = []
    private var pushDropActive = false
    private var latencyActive = false
    /// A `race` fault struck at this step: its operation becomes an insert in a trigger.
    private var racing = false

    /// The probe points a racing insert may wait for: inside a download, and after an
    /// upload left, where the app saving is a race with the engine.
    let raceProbes: [String]

    init(seed: UInt64, probePoints: [String]) {
        self.init(seed: seed, mutation: nil, probePoints: probePoints)
    }

    /// The draw of `seed`, each stream a mutation keeps drawn from its parent's seed instead.
    init(seed: UInt64, mutation: SwarmMutation?, probePoints: [String]) {
        raceProbes = probePoints.filter { point in
            point.hasPrefix("download.page.") || point == "download.done" || point == "upload.sent"
        }
        func stream(_ kind: SwarmMutation.Stream, _ name: String) -> Xoshiro256StarStar {
            RandomStreams(seed: mutation?.streamSeed(kind, of: seed) ?? seed).stream(name)
        }
        times = stream(.times, "chaos/times")
        operations = stream(.ops, "chaos/ops")
        values = stream(.values, "chaos/values")
        faults = stream(.faults, "chaos/faults")
    }

    /// Draws and runs the whole fault phase. Liftings due after the last operation are left
    /// to the heal phase.
    mutating func run(_ run: ChaosRun) {
        var offset = SimTime.zero
        for step in 1...max(1, run.plan.operations) {
            guard run.world.failure == nil else { return }
            offset = offset.adding(Self.draw(run.plan.interval, &times))
            runLiftings(upTo: offset, run)
            // Draws look at the world as it is when the step runs.
            run.advance(to: offset)
            strikeFaults(at: offset, run)
            drawOperation(step, at: offset, run)
        }
    }

    /// Draws a duration in whole milliseconds within the specification's bounds.
    static func draw(_ specification: DurationSpecification, _ random: inout Xoshiro256StarStar)
        -> SimTime
    {
        switch specification {
        case .fixed(let span):
            return SimTime(microseconds: span.microseconds)
        case .range(let lower, let upper):
            // Rounded up without `+ 999`, which overflows for a bound near `Int64.max`.
            let low = lower.microseconds / 1_000 + (lower.microseconds % 1_000 > 0 ? 1 : 0)
            let high = upper.microseconds / 1_000
            guard low <= high else { return SimTime(microseconds: lower.microseconds) }
            return SimTime(microseconds: random.int(in: low...high) * 1_000)
        }
    }

    // MARK: Faults

    private mutating func runLiftings(upTo offset: SimTime, _ run: ChaosRun) {
        while let next = liftings.first, next.offset <= offset {
            liftings.removeFirst()
            guard isApplicable(next.action, run) else { continue }
            note(next.action)
            run.execute(next)
        }
    }

    /// A lifting only runs where it still means something (a killed device cannot start).
    private func isApplicable(_ action: ChaosAction, _ run: ChaosRun) -> Bool {
        guard case .device(let name, let operation) = action,
            let index = run.world.deviceIndex[name] else { return true }
        let running = run.world.devices[index].isRunning
        switch operation {
        case .launch: return !running
        case .start: return running
        default: return true
        }
    }

    private mutating func strikeFaults(at offset: SimTime, _ run: ChaosRun) {
        for fault in run.plan.faults {
            let partsPerMillion = UInt64(max(0, fault.probability.partsPerMillion))
            guard faults.chance(partsPerMillion, in: 1_000_000) else { continue }
            strike(fault, at: offset, run)
        }
    }

    private mutating func strike(_ fault: ChaosFault, at offset: SimTime, _ run: ChaosRun) {
        let kind = fault.kind.value
        if kind == .race {
            racing = true
            return
        }
        let duration = fault.effectiveDuration.map { Self.draw($0, &faults) } ?? .zero
        let group = nextGroup
        nextGroup += 1
        var strike: ChaosAction?
        var lifting: ChaosAction?
        if kind.isDeviceFault {
            guard let device = pickDevice(for: kind, run) else { return }
            (strike, lifting) = deviceFault(kind, device: device, run)
        } else {
            (strike, lifting) = cloudFault(kind, duration: duration, run)
        }
        guard let strike else { return }
        note(strike)
        run.execute(ChaosStep(offset: offset, action: strike, group: group))
        if let lifting {
            precondition(duration >= .zero, "a fault lasts no negative time")
            let step = ChaosStep(offset: offset.adding(duration), action: lifting, group: group)
            let position = liftings.firstIndex { $0.offset > step.offset } ?? liftings.count
            liftings.insert(step, at: position)
        }
    }

    private mutating func deviceFault(_ kind: ChaosFaultKind, device: String, _ run: ChaosRun)
        -> (ChaosAction?, ChaosAction?)
    {
        switch kind {
        case .offline: return (.device(device, .offline), .device(device, .online))
        case .kill: return (.device(device, .kill), .device(device, .launch))
        case .sync: return (.device(device, .sync), nil)
        case .stop: return (.device(device, .stop), .device(device, .start))
        case .accountUnavailable:
            return (.device(device, .accountUnavailable), .device(device, .accountAvailable))
        case .signOut, .switchAccount:
            // Struck only on a device in its own account (`canStrike`), so it goes back there.
            guard let home = run.plan.account(of: device) else { return (nil, nil) }
            let back = ChaosAction.signIn(device: device, account: home)
            guard kind == .switchAccount else { return (.device(device, .signOut), back) }
            let others = run.plan.declaredAccounts.filter { $0 != home }
            guard !others.isEmpty else { return (nil, nil) }
            let other = others[Int(faults.uniform(below: UInt64(others.count)))]
            return (.signIn(device: device, account: other), back)
        default:
            return (nil, nil)
        }
    }

    private mutating func cloudFault(_ kind: ChaosFaultKind, duration: SimTime, _ run: ChaosRun)
        -> (ChaosAction?, ChaosAction?)
    {
        let accounts = run.plan.accounts
        guard !accounts.isEmpty else { return (nil, nil) }
        let account = accounts[Int(faults.uniform(below: UInt64(accounts.count)))]
        switch kind {
        case .throttle:
            return (.throttle(account: account, duration: duration.timeSpan), nil)
        case .throttleUpload:
            let records = Int(faults.int(in: 1...3))
            let retryAfter = Self.draw(.range(
                lower: TimeSpan(microseconds: 1_000_000),
                upper: TimeSpan(microseconds: 10_000_000)), &faults)
            return (.throttleUpload(
                account: account, records: records, retryAfter: retryAfter.timeSpan), nil)
        case .outage:
            return (.outage(duration: duration.timeSpan), nil)
        case .expireTokens:
            return (.expireTokens(account: account), nil)
        case .deleteZone:
            return (.deleteZone(account: account), nil)
        case .userDeleteZone:
            return (.userDeleteZone(account: account), nil)
        case .quota:
            guard !fullQuotas.contains(account) else { return (nil, nil) }
            return (.quota(account: account, full: true), .quota(account: account, full: false))
        case .pushDrop:
            guard !pushDropActive else { return (nil, nil) }
            return (.pushDrop(Probability(partsPerMillion: Probability.denominator)),
                .pushDrop(run.plan.setupPushDrop))
        case .latency:
            guard !latencyActive else { return (nil, nil) }
            let slow = DurationSpecification.range(
                lower: TimeSpan(microseconds: 1_000_000), upper: TimeSpan(microseconds: 5_000_000))
            return (.latency(slow), .latency(run.plan.setupLatency))
        case .reject:
            run.world.labels.resolveNames(devices: run.world.devices)
            let named = run.labels.map(\.label).filter { label in
                !rejected.contains(label) && run.world.labels.recordName(of: label) != nil
            }
            guard !named.isEmpty else { return (nil, nil) }
            let label = named[Int(faults.uniform(below: UInt64(named.count)))]
            return (.reject(label: label), .accept(label: label))
        default:
            return (nil, nil)
        }
    }

    /// Keeps the draw's view of the cloud faults in force.
    private mutating func note(_ action: ChaosAction) {
        switch action {
        case .quota(let account, let full):
            fullQuotas.removeAll { $0 == account }
            if full { fullQuotas.append(account) }
        case .pushDrop: pushDropActive.toggle()
        case .latency: latencyActive.toggle()
        case .reject(let label): rejected.append(label)
        case .accept(let label): rejected.removeAll { $0 == label }
        default: break
        }
    }

    /// A workload device the fault can strike, drawn uniformly; nil when none can.
    private mutating func pickDevice(for kind: ChaosFaultKind, _ run: ChaosRun) -> String? {
        let world = run.world
        // Sized once for every workload device (`compactMap` grew it name by name).
        var eligible: [String] = []
        eligible.reserveCapacity(run.planDevices.count)
        for entry in run.planDevices {
            guard let index = entry.index else { continue }
            let device = world.devices[index]
            if kind == .signOut || kind == .switchAccount {
                // One account fault at a time: a device signs back into the account it left.
                let home = run.plan.account(of: entry.name)
                let atHome = device.account != nil && device.account == home
                if atHome && device.accountStatus == .available { eligible.append(entry.name) }
            } else if Self.canStrike(kind, device, index: index, world) {
                eligible.append(entry.name)
            }
        }
        guard !eligible.isEmpty else { return nil }
        return eligible[Int(faults.uniform(below: UInt64(eligible.count)))]
    }

    /// Whether a device fault of this kind can strike the device now.
    private static func canStrike(
        _ kind: ChaosFaultKind, _ device: Device, index: Int, _ world: World
    ) -> Bool {
        switch kind {
        case .offline: return device.isOnline
        case .stop: return device.isRunning && world.engineState(of: index) != .stopped
        case .accountUnavailable: return device.accountStatus == .available
        default: return device.isRunning
        }
    }

    // MARK: Operations

    private mutating func drawOperation(_ step: Int, at offset: SimTime, _ run: ChaosRun) {
        // The running workload devices counted, then the drawn one found: no list of their
        // names built at every step.
        let devices = run.world.devices
        let planDevices = run.planDevices
        func isRunning(_ entry: (name: String, index: Int?)) -> Bool {
            entry.index.map { devices[$0].isRunning } ?? false
        }
        var runningCount = 0
        for entry in planDevices where isRunning(entry) { runningCount += 1 }
        guard runningCount > 0 else { return }
        var rest = Int(operations.uniform(below: UInt64(runningCount)))
        var device = ""
        var deviceIndex = 0
        for entry in planDevices where isRunning(entry) {
            if rest == 0, let index = entry.index {
                (device, deviceIndex) = (entry.name, index)
                break
            }
            rest -= 1
        }
        let kind = drawKind(run.plan.mix)
        let operation = OperationDraw(
            step: step, device: device, deviceIndex: deviceIndex, labelNumber: nextLabel,
            run: run)
        // Unwrapped where it is drawn: bound out of an optional variable, the action was
        // copied (every string retained) and the optional destroyed after the step.
        guard var action = operation.draw(
            racing ? .insert : kind, operations: &operations, values: &values)
            ?? operation.draw(.insert, operations: &operations, values: &values)
        else {
            racing = false
            return
        }
        if racing, !raceProbes.isEmpty {
            let probe = raceProbes[Int(faults.uniform(below: UInt64(raceProbes.count)))]
            action = .trigger(device: device, probe: probe, action: action)
        }
        racing = false
        if action.boundLabel != nil { nextLabel += 1 }
        let group = nextGroup
        nextGroup += 1
        // A share is accepted at once by a device of the invited account, when one runs.
        var shared: (label: String, account: String)?
        if case .sharing(_, .share(let label, let account, _)) = action {
            shared = (label, account)
        }
        // The action moved into its step, and the step into the run: not copied.
        run.execute(ChaosStep(offset: offset, action: consume action, group: group))
        if let (label, account) = shared, let acceptor = pickDevice(signedInto: account, run) {
            run.execute(ChaosStep(
                offset: offset, action: .sharing(device: acceptor, .accept(label: label)),
                group: group))
        }
    }

    /// A running workload device signed into `account`, drawn uniformly; nil when none is.
    private mutating func pickDevice(signedInto account: String, _ run: ChaosRun) -> String? {
        let devices = run.world.devices
        let eligible = run.planDevices.compactMap { entry -> String? in
            guard let index = entry.index, devices[index].isRunning,
                devices[index].account == account else { return nil }
            return entry.name
        }
        guard !eligible.isEmpty else { return nil }
        return eligible[Int(operations.uniform(below: UInt64(eligible.count)))]
    }

    private mutating func drawKind(_ mix: ChaosMix) -> ChaosOperationKind {
        var point = Int64(operations.uniform(below: UInt64(Probability.denominator)))
        for share in mix.shares {
            point -= share.share.partsPerMillion
            if point < 0 { return share.kind }
        }
        return .insert
    }
}
