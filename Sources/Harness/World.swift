import CloudSim
import Device
import Kernel
import LocalStore
import Scenario
import SyncContract

/// Why a run stopped before its script ended: a budget, a bound, or an action that could not
/// run. The line is the statement being run.
public struct RuntimeFailure: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var time: SimTime
    public var message: String

    public init(line: Int, time: SimTime, message: String) {
        self.line = line
        self.time = time
        self.message = message
    }

    public var description: String { "\(message) (at \(time))" }
}

/// The simulated world: one kernel, one cloud, the devices; it carries out engine effects,
/// moves requests, answers and pushes across the network, and runs scenario triggers.
///
/// `@exclusivity(unchecked)`, since the runtime checks of these properties would be paid on every
/// event: only on properties that are read, assigned, or changed in place by code that cannot reach
/// the world (stdlib collections, the kernel, the value types of lower targets and the world's own
/// parts such as `NetworkState`, which know no `World`), so no two accesses to one of them can
/// ever overlap and the dynamic check could never fire. The property keeps its static checks; a
/// property a closure or a callback into the world may change while it is being changed (the
/// waiters) keeps its runtime check too.
final class World {
    /// The bound on `wait until … idle`, `settle` and waiting actions.
    static let waitBound = SimTime.hours(1)
    /// How many synchronizations one device may start at one simulated instant before the
    /// run ends as a livelock (`LivenessGuard`).
    static let syncStartsPerInstantLimit = LivenessGuard.defaultLimit

    @exclusivity(unchecked) var kernel: Kernel<WorldEvent>
    let cloud: CloudService
    @exclusivity(unchecked) var devices: [Device] = [] {
        didSet { noteDevices() }
    }
    /// `devices` unretained, for the calls made at every event: `devices` keeps each alive,
    /// and a device read from it was retained and released around each call.
    let unretainedDevices = DeviceValues<Unmanaged<Device>>()
    /// Assigned only while the world is built.
    @exclusivity(unchecked) var deviceIndex: [String: Int] = [:]
    /// Each device's name, by index (the keys of `deviceIndex`), for `index(ofDevice:)`.
    @exclusivity(unchecked) var deviceNames: [String] = []
    let streams: RandomStreams
    /// Latencies, pushes and which devices are online.
    @exclusivity(unchecked) var network: NetworkState
    @exclusivity(unchecked) var trace: Trace
    /// Each device's kernel handle, by device index, and the cloud's: scheduling by handle
    /// skips hashing the actor's name on every event.
    @exclusivity(unchecked) var deviceActors: [ActorID] = []
    @exclusivity(unchecked) var cloudActor = ActorID(index: 0)
    /// The rules that fired, per device index and the cloud's.
    @exclusivity(unchecked) var ruleTally = RuleTally()
    /// Whether the running loop lets the event being dispatched pass probe points in line
    /// (`probesPassInLine(for:)`); read and cleared by the event's first delivery.
    @exclusivity(unchecked) var dispatchMayPassInLine = false
    /// How many more of the probe points in the effects being carried out on each device the
    /// engine resumed in line (the first ones; `Device.deliverWritingFirst`).
    let inLinePasses = DeviceValues<Int>()
    /// Whether the event being carried out on each device completed or failed a waiting
    /// action: no probe point may be passed in line after that (`passInLine`).
    let endedWaitInEvent = DeviceValues<Bool>()
    /// How many probe points engines passed in line in this run (`RunResult`).
    @exclusivity(unchecked) var probesPassedInLine = 0
    /// The probe points' order per device, for a run whose coverage is read; nil otherwise,
    /// so a plain sweep does not build a pair at every probe point.
    @exclusivity(unchecked) var probePairs: ProbePairTally?
    /// Events waiting for each device (requests, answers, pushes, resumes), for idleness.
    let outstanding = DeviceValues<Int>()
    /// Each device's armed timers, by kind: the kernel event that fires one and when.
    ///
    /// Kept here, not on the device, so that setting a timer looks it up and stores it once,
    /// not in two dictionaries (the device's, of another module, with each access checked for
    /// exclusivity at run time, and the world's of due times). A short list per device, not a
    /// dictionary (`ArmedTimers`): hashing the timer's name would be most of a set or a fire.
    @exclusivity(unchecked) var timers: [ArmedTimers] = []
    /// CloudKit error codes each device was refused with (share steps, access control).
    /// Codes, not their names: naming each refusal would build a string; `refused` names them
    /// when it asks.
    @exclusivity(unchecked) var refusals: [RefusedCodes] = []
    /// Synchronizations started per device at the current instant (the livelock guard).
    @exclusivity(unchecked) var livenessGuards: [LivenessGuard] = []
    /// The waiting actions, running and ended. Checked at run time: a wait's condition reads
    /// it between the events that change it.
    var waiters = WaiterBook()
    /// Waiting actions the engine ended without doing them (a failed initialize-schema).
    var failedActions: [Leftovers.UnfinishedAction] = []
    /// How many of `failedActions` an `expect failure` has looked at.
    var expectedFailuresChecked = 0
    /// Actions refused since the last `expect failure` because the store never loaded.
    var refusedActionsToExpect: [String] = []
    /// The messages of the warnings `synclab check` gives the file on this run's engine.
    var fileWarnings: [String] = []
    /// Unchecked too: every access reads, appends or changes one element and ends before a
    /// trigger's action runs (which may arm more), so no two accesses overlap; it was checked
    /// at every probe point.
    @exclusivity(unchecked) var triggers: [ArmedTrigger] = []
    /// Told the disk owner's index after a trigger ran an app action on a device.
    var afterTriggerAction: ((Int) -> Void)?
    /// Told the device and the models of each batch delete, before its engine hears of it.
    var afterBatchDelete: ((Int, [ModelID]) -> Void)?
    /// Told the zones a user's purge is about to remove, before the cloud removes them.
    var beforeUserPurge: (([ZoneID]) -> Void)?
    /// The line of the statement running now, for failures.
    var currentLine = 0
    @exclusivity(unchecked) var failure: RuntimeFailure?
    /// The scenario's labels and the records they stand for.
    let labels: LabelTable
    let schema: LocalStore.Schema
    /// The engine every device of this world runs.
    let profile: EngineProfile
    /// Kill a device right after its engine's Nth write (the contract suite's kill between
    /// writes); counted per device from the start of the run.
    let killAfterWrite: WriteKill?
    /// `RunOptions.probesPassInLine`.
    let allowsInLinePasses: Bool
    /// The writes each device's engine made so far.
    let writeCounts = DeviceValues<Int>()
    /// Each device's incarnation and whether its engine lends it the disk
    /// (`Device.lendsDisk`; false while the app is not running), as `World.launch` and
    /// `World.kill` left them, the only two places a device launches or is killed.
    ///
    /// Read on every event instead of the device's own properties: the compiler reads a
    /// stored property of another module's class in place and checks its exclusivity at run
    /// time on each read, `@exclusivity(unchecked)` there or not.
    @exclusivity(unchecked) var incarnations: [Int] = []
    @exclusivity(unchecked) var lendsDisk: [Bool] = []
    /// For each device, the index of the device whose disk it uses: itself, or for an
    /// extension its app's (EXT-1).
    @exclusivity(unchecked) var diskOwners: [Int] = []
    /// Whether each disk's store (by the owner's index) may have changed since the save ledger last
    /// read it: the ledger reads only those (reading a store through `Device.disk` copies the
    /// disk's references, and most statements leave most stores alone).
    ///
    /// Only two things change a store: an engine's write, which the world carries out (or
    /// counts, for a lent disk), and an app action, which runs in `perform(_:waiting:)`; each
    /// sets the flag. The ledger clears it when it reads the store.
    @exclusivity(unchecked) var storeChanged: [Bool] = []
    /// Takes the world's state after each trace event, for reports (`RunOptions.recordSteps`).
    var stepRecorder: StepRecorder?

    /// How the engine lays records out in iCloud.
    var codec: any RecordCodec { profile.codec }

    /// A world for a scenario whose engine the options' registry holds (checked by the
    /// caller: `RunOptions.profile(for:)`).
    /// `schema`: the scenario's, lowered already (an explorer lowers it once per sweep).
    init(scenario: ScenarioFile, seed: UInt64, options: RunOptions, schema lowered: Schema? = nil) {
        guard let profile = options.profile(for: scenario) else {
            preconditionFailure("engine '\(options.engineName(for: scenario))' is not registered")
        }
        self.profile = profile
        killAfterWrite = options.killAfterWrite
        allowsInLinePasses = options.probesPassInLine
        let configuration = scenario.cloud
        let recordTrace = options.recordTrace
        kernel = Kernel(budget: options.budget(for: scenario))
        streams = RandomStreams(seed: seed)
        schema = lowered ?? SchemaLowering.schema(of: scenario)
        labels = LabelTable()
        trace = Trace(recording: recordTrace)
        network = NetworkState(
            cloudLatency: Latency(configuration.latency),
            pushLatency: Latency(configuration.pushLatency),
            pushDropPerMillion: UInt64(max(0, configuration.pushDrop.partsPerMillion)))
        cloud = CloudService(configuration: World.cloudConfiguration(
            of: scenario, profile: profile, options: options))
        for declaration in scenario.devices {
            let name = declaration.name.value
            let host = declaration.extensionOf.flatMap { hostName in
                devices.first { $0.name == hostName.value }
            }
            let hostIndex = declaration.extensionOf.flatMap { hostName in
                devices.firstIndex { $0.name == hostName.value }
            }
            diskOwners.append(hostIndex.map { diskOwners[$0] } ?? devices.count)
            storeChanged.append(true)
            let device = Device(
                name: name,
                schema: schema,
                account: declaration.account?.value,
                names: streams.stream("names/\(name)"),
                profile: profile,
                pageSize: configuration.pageSize,
                mechanisms: options.mechanisms,
                host: host
            )
            device.isTracing = recordTrace
            device.syncSelection = declaration.syncs.map(SyncView.init(selections:))
            device.latency = declaration.latency.map { Latency($0.value) }
            incarnations.append(device.incarnation)
            lendsDisk.append(false)
            deviceIndex[name] = devices.count
            deviceNames.append(name)
            devices.append(device)
            // Observers do not run in the initializer.
            unretainedDevices.append(Unmanaged.passUnretained(device))
            network.addDevice(
                latency: device.latency, online: device.isOnline,
                latencyStream: streams.stream("latency/\(name)"),
                pushStream: streams.stream("push/\(name)"))
            outstanding.append(0)
            timers.append(ArmedTimers())
            livenessGuards.append(LivenessGuard(limit: Self.syncStartsPerInstantLimit))
            refusals.append(RefusedCodes())
            ruleTally.addSet()
            writeCounts.append(0)
            inLinePasses.append(0)
            endedWaitInEvent.append(false)
            deviceActors.append(kernel.actor(named: name))
        }
        ruleTally.addSet()
        ruleTally.sealSets()
        cloudActor = kernel.actor(named: "cloud")
    }

    /// The simulated cloud's settings: the file's `cloud` lines, the engine's app zone and
    /// the options' cloud switches.
    private static func cloudConfiguration(
        of scenario: ScenarioFile, profile: EngineProfile, options: RunOptions
    ) -> CloudSim.CloudConfiguration {
        let configuration = scenario.cloud
        let environment: CloudSim.CloudEnvironment =
            configuration.environment == .production ? .production : .development
        var cloudConfiguration = CloudSim.CloudConfiguration(
            accounts: scenario.accounts.map(\.name.value),
            appZoneName: profile.codec.zoneNames[0],
            environment: environment
        )
        cloudConfiguration.recreatesDeletedRecords = options.cloudRecreatesDeletedRecords
        cloudConfiguration.tokenlessFetchOmitsDeletions = options.cloudTokenlessFetchOmitsDeletions
        cloudConfiguration.missingDeletes =
            configuration.missingDeletes == .unknownItem ? .unknownItem : .succeed
        cloudConfiguration.childSaveChangesParentTag = configuration.childSaves == .touchParent
        return cloudConfiguration
    }

    var now: SimTime { kernel.now }

    /// `deviceIndex[name]`, found by comparing the few names instead of hashing the one
    /// asked for: it is most often the very string the world named the device with, which
    /// compares equal by identity at once. The last match wins, as in the dictionary.
    func index(ofDevice name: String) -> Int? {
        var index = deviceNames.count
        while index > 0 {
            index -= 1
            if deviceNames[index] == name { return index }
        }
        return nil
    }

    // MARK: Trace

    /// Details are built only when the trace keeps events (a sweep only counts them), and so
    /// is the actor's name: `perform` names the device from `deviceNames` and need not hold
    /// (retain) the device for it.
    func record(
        _ actor: @autoclosure () -> String, _ kind: String,
        _ details: @autoclosure () -> [TraceField] = [], rules: [String] = []
    ) {
        guard trace.isRecording else {
            // Only counted: no event built and destroyed (a sweep records thousands a seed).
            trace.countUnkept()
            return
        }
        trace.append(TraceEvent(
            time: now, actor: actor(), kind: kind, details: details(), rules: rules))
        stepRecorder?.note(self)
    }

    /// Notes rules that fired on a device, or in the cloud (nil).
    func noteFired(_ rules: [String], device: Int?) {
        guard !rules.isEmpty else { return }
        ruleTally.note(rules, at: device ?? devices.count)
    }

    /// Rules fired, per device index; index `devices.count` stands for the cloud.
    var firedRules: [Set<String>] { ruleTally.fired }

    // MARK: Running the kernel

    /// Runs events until `limit`; false when the run failed meanwhile.
    @discardableResult
    func run(until limit: SimTime) -> Bool {
        var budgetFailure: BudgetFailure?
        while failure == nil {
            // The payload alone: no step built around it on its way out of the kernel.
            guard let payload = kernel.nextPayload(until: limit, failure: &budgetFailure) else {
                if let budgetFailure {
                    fail(budgetFailure.description)
                    return false
                }
                return failure == nil
            }
            // Nothing is checked between events here, so an engine may pass probe points
            // in line while it handles this one (`probesPassInLine(for:)`).
            dispatchMayPassInLine = true
            // Consumed: the payload moves on (a boxed request or answer was retained for
            // the dispatch and released with the step).
            dispatch(consume payload)
            dispatchMayPassInLine = false
        }
        return false
    }

    /// Runs events one at a time until `condition` holds, at most `bound` of simulated time.
    ///
    /// `passesInLine`: whether no event can make `condition` false between a probe point and
    /// its `.resume`, so that the check between the two can be left out and the point
    /// passed in line (`probesPassInLine`). True for the world's waits: a device with an
    /// event on its way is not idle (and another device's event makes no device idle); a
    /// wait for an action ends only with a `.completed` or `.failed` effect, after which no
    /// point is passed in line in the same event.
    func run(
        while condition: () -> Bool, bound: SimTime, what: String, passesInLine: Bool
    ) {
        let deadline = now.adding(bound)
        var budgetFailure: BudgetFailure?
        while failure == nil && condition() {
            guard let payload = kernel.nextPayload(until: deadline, failure: &budgetFailure)
            else {
                if let budgetFailure {
                    fail(budgetFailure.description)
                } else if condition() {
                    fail("\(what) did not happen within \(bound)")
                }
                return
            }
            dispatchMayPassInLine = passesInLine
            dispatch(consume payload)
            dispatchMayPassInLine = false
        }
    }

    /// Ends the run when a device keeps starting synchronizations without time moving: the
    /// budget would otherwise stop it only after millions of events.
    func failLivelock(device index: Int, repeating what: String) {
        let count = livenessGuards[index].limit
        fail("livelock: '\(devices[index].name)' started \(count) times a \(what) "
             + "at \(now) without simulated time moving")
    }

    func fail(_ message: String) {
        guard failure == nil else { return }
        failure = RuntimeFailure(line: currentLine, time: now, message: message)
        record("script", "run.failed", [
            TraceField("line", .int(Int64(currentLine))),
            TraceField("message", .string(message)),
        ])
    }

    /// True when the device has nothing in flight and no timer due before `horizon` (by
    /// default an hour from now).
    ///
    /// `settle` and `wait until … idle` fix the horizon when they begin: a timer an hour or
    /// more away then (a record set aside for an hour, SCHEMA-4) is not waited for, also
    /// once the clock moved closer to it. With a horizon sliding along with the clock, such
    /// a timer would come into reach a moment later and the wait would run into its own
    /// one-hour bound just as the timer fired. For the same reason a timer armed for an hour
    /// or more is never waited for, also when the wait began a moment after it was armed.
    func isIdle(_ index: Int, before horizon: SimTime? = nil) -> Bool {
        if outstanding[index] > 0 { return false }
        let device = devices[index]
        if let engine = device.engine, !engine.isIdle(now: now) { return false }
        let horizon = horizon ?? now.adding(Self.waitBound)
        return !timers[index].contains(dueBefore: horizon)
    }

    var isSettled: Bool { isSettled(before: nil) }

    func isSettled(before horizon: SimTime?) -> Bool {
        devices.indices.allSatisfy { isIdle($0, before: horizon) }
    }

    // MARK: Dispatch

    /// Consumes the event, so that requests and answers are moved into their handlers.
    private func dispatch(_ event: consuming WorldEvent) {
        switch consume event {
        case .requestArrives(let index, let incarnation, let sent, let client):
            outstanding[index] -= 1
            requestArrives(index, sent, client, sentBy: incarnation)
        case .responseArrives(let index, let incarnation, let id, let response):
            outstanding[index] -= 1
            guard incarnations[index] == incarnation,
                unretainedDevices[index]._withUnsafeGuaranteedRef({ $0.isRunning }) else {
                record(deviceNames[index], "response.lost",
                       [TraceField("request", .string(id.description))])
                return
            }
            record(deviceNames[index], "response.received", responseDetails(id, response))
            noteRefusals(response, device: index)
            deliver(.response(id, response), to: index)
        case .pushArrives(let index):
            outstanding[index] -= 1
            pushArrives(index)
        case .resume(let index, let incarnation, let ticket):
            outstanding[index] -= 1
            guard incarnations[index] == incarnation else { return }
            deliver(ticket == .sole ? Self.resumeEvent : .resume(ticket), to: index)
        case .timer(let index, let incarnation, let timer):
            guard incarnations[index] == incarnation else { return }
            timers[index][timer] = nil
            record(devices[index].name, "timer.fired",
                   [TraceField("timer", .string(timer.rawValue))])
            deliver(.timer(timer), to: index)
        }
    }

    /// Engine events without a payload, built once. An engine event is a large enum: building
    /// one for each resume (most events) would clear and copy all of it. Built through
    /// `prebuilt(_:)`, which the optimizer does not inline: given the value, it folds the
    /// constant back into every use.
    static let resumeEvent = prebuilt(.resume(.sole))
    static let pushEvent = prebuilt(.push)
    static let storeSavedEvent = prebuilt(.storeSaved)

    @inline(never)
    private static func prebuilt(_ event: EngineEvent) -> EngineEvent { event }

    /// Hands an event to a device's engine and carries out the effects.
    func deliver(_ event: EngineEvent, to index: Int) {
        let incarnation = incarnations[index]
        assert(incarnation == devices[index].incarnation, "the world lost count of incarnations")
        // `perform` carries out the first effect at once unless the run failed already: then
        // the device may lend its disk, and an engine that writes its whole state first has
        // its first write on the disk already when `deliverWritingFirst` returns.
        guard failure == nil else {
            dispatchMayPassInLine = false
            perform(devices[index].deliver(event, now: now), device: index,
                    incarnation: incarnation)
            return
        }
        var inLine = probesPassInLine(for: index)
        endedWaitInEvent[index] = false
        let effects = unretainedDevices[index]._withUnsafeGuaranteedRef {
            $0.deliverWritingFirst(event, now: now, resumingInLine: &inLine)
        }
        inLinePasses[index] = inLine
        perform(effects, device: index, incarnation: incarnation,
                firstWriteDone: lendsDisk[index])
        // Spent with its event: no later effects of the device (a rollback's) may use it.
        inLinePasses[index] = 0
    }

    /// The list, leaving an empty one in its place: returned uniquely held.
    private static func takeAll(_ effects: inout [EngineEffect]) -> [EngineEffect] {
        var taken: [EngineEffect] = []
        swap(&taken, &effects)
        return taken
    }

    /// Sets the flag of the device's disk in `storeChanged`, left alone when set: most
    /// events of a statement find it set, and each change checked the list's uniqueness.
    @inline(__always)
    func noteStoreChanged(_ index: Int) {
        let owner = diskOwners[index]
        if !storeChanged[owner] { storeChanged[owner] = true }
    }

    /// Keeps `unretainedDevices` in step with `devices`.
    private func noteDevices() {
        while unretainedDevices.count < devices.count {
            unretainedDevices.append(Unmanaged.passUnretained(devices[unretainedDevices.count]))
        }
        precondition(unretainedDevices.count == devices.count, "devices are only ever added")
        for index in devices.indices {
            unretainedDevices[index] = Unmanaged.passUnretained(devices[index])
        }
    }

    /// Tells the engine what a `rollback` discarded; an engine that ignores rollbacks
    /// returns no effects, so nothing is recorded.
    func deliverRollback(_ discarded: DiscardedTransaction, to index: Int) {
        let device = devices[index]
        perform(device.deliverRollback(discarded, now: now), device: index,
                incarnation: incarnations[index])
    }

    /// Carries out the effects in order; `firstWriteDone`: the first effect is a write the
    /// device already carried out (the lent disk), which only counts.
    ///
    /// Each effect is moved out of the array (swapped with a probe without a name, which holds
    /// no storage), not copied: a copy retained every reference of its payload, and destroying
    /// the array released them again (a whole-state write holds the store's and the sync
    /// data's, on every sds event). The lent write is not even looked at: `Device` checked
    /// it (reading its store's history position cost as much as a read through the disk).
    ///
    /// The device is named through `deviceNames` and found in `devices` only for a write:
    /// holding it for the whole call retained and released it on every delivery.
    func perform(
        _ effects: consuming [EngineEffect], device index: Int, incarnation: Int,
        firstWriteDone: Bool = false
    ) {
        var effects = effects
        var position = 0
        if firstWriteDone {
            precondition(!effects.isEmpty,
                         "'\(deviceNames[index])': the lent disk's write is missing")
            noteStoreChanged(index)
            position = 1
            if countWrite(device: index) { return }
        }
        var deferred: [ArmedTrigger] = []
        var finished = true
        // One exclusive access for the whole walk: each effect is moved out of its place and
        // the placeholder put there, not swapped through a checked element access.
        effects.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let count = buffer.count
            while position < count {
                guard incarnations[index] == incarnation, failure == nil else {
                    finished = false
                    return
                }
                let effect = (base + position).move()
                (base + position).initialize(to: .probe(""))
                position += 1
                var writesFollow = false
                if !triggers.isEmpty, effect.isProbe {
                    writesFollow = Self.holdsWrite(
                        UnsafeBufferPointer(rebasing: buffer[position...]))
                }
                guard carryOut(consume effect, index: index, incarnation: incarnation,
                               writesFollow: writesFollow, deferred: &deferred) else {
                    finished = false
                    return
                }
            }
        }
        // App actions that waited for the writes after their probe point (`runTriggers`).
        for trigger in deferred where failure == nil {
            fire(trigger, probe: trigger.probe, device: index, deferred: true)
        }
        guard finished, deferred.isEmpty else { return }
        if firstWriteDone {
            // Taken out of the variable, not consumed in the closure (which released it twice).
            unretainedDevices[index]._withUnsafeGuaranteedRef {
                $0.reuseEffects(Self.takeAll(&effects))
            }
        }
    }

    /// Carries out one effect; false when the effects after it must be dropped (the run
    /// failed, or the device was killed).
    @inline(__always)
    private func carryOut(
        _ effect: consuming EngineEffect, index: Int, incarnation: Int,
        writesFollow: Bool, deferred: inout [ArmedTrigger]
    ) -> Bool {
        if case .send(let id, _) = effect {
            // Handed on whole: binding its request copied the request out of the box.
            send(consume effect, id: id, from: index)
            return true
        }
        switch consume effect {
        case .send:
            preconditionFailure("a request is sent before the switch")
        case .setTimer(let timer, let delay):
            if let existing = timers[index][timer] { kernel.cancel(existing.event) }
            let eventID = kernel.schedule(
                after: delay, actor: deviceActors[index],
                .timer(device: index, incarnation: incarnation, timer)
            )
            timers[index][timer] = ArmedTimer(
                event: eventID, due: now.adding(delay), isLong: delay >= Self.waitBound)
        case .cancelTimer(let timer):
            if let existing = timers[index].removeValue(forKey: timer) {
                kernel.cancel(existing.event)
            }
        case .probe(let name, let ticket):
            if inLinePasses[index] > 0 { return passInLine(name, ticket: ticket, index: index) }
            return pass(name, ticket: ticket, index: index, incarnation: incarnation,
                        writesFollow: writesFollow, deferred: &deferred)
        case .trace(let kind, let details, let rules):
            record(deviceNames[index], kind, details, rules: rules)
            noteFired(rules, device: index)
            if EngineEffect.isRuntimeErrorKind(kind),
               case .string(let message)? = details.first?.value {
                fail("\(deviceNames[index]): \(message)")
                return false
            }
        case .completed(let waiter):
            waiters.complete(waiter.rawValue)
            endedWaitInEvent[index] = true
        case .failed(let waiter, let reason):
            actionFailed(waiter, reason: reason, device: index)
            endedWaitInEvent[index] = true
        case .write(let write):
            if case .some = write.store { noteStoreChanged(index) }
            devices[index].apply(write)
            if countWrite(device: index) { return false }
        }
        return true
    }

    /// Passes a probe point: traces it, runs the triggers waiting for it and schedules the
    /// engine's `.resume`; false when the effects after it must be dropped.
    private func pass(
        _ name: String, ticket: ProbeTicket, index: Int, incarnation: Int,
        writesFollow: Bool, deferred: inout [ArmedTrigger]
    ) -> Bool {
        // The details are built only when the trace keeps them: a sweep passes a thousand
        // probe points a seed, and each array built here would be allocated and freed unread.
        record(deviceNames[index], "probe", Self.probeDetails(name, ticket.synchronization))
        probePairs?.note(name, device: index)
        if Self.isSyncStart(name) && !livenessGuards[index].noteStart(at: now) {
            failLivelock(device: index, repeating: "synchronization (sync.start)")
            return false
        }
        runTriggers(device: index, probe: name, writesFollow: writesFollow,
                    deferred: &deferred)
        // Still the same incarnation: then the app still runs (a kill starts a new one).
        if incarnations[index] == incarnation {
            outstanding[index] += 1
            kernel.schedule(after: .zero, actor: deviceActors[index],
                            .resume(device: index, incarnation: incarnation, ticket: ticket))
        }
        return true
    }

    static func probeDetails(_ name: String, _ synchronization: Int?) -> [TraceField] {
        var details = [TraceField("point", .string(name))]
        if let synchronization { details.append(TraceField("sync", .int(Int64(synchronization)))) }
        return details
    }

    /// Whether the effects left write the disk or send a request: made by the
    /// engine before the probe point it passed in line (scanned only at a probe point while
    /// triggers are armed).
    private static func holdsWrite(_ effects: UnsafeBufferPointer<EngineEffect>) -> Bool {
        for offset in effects.indices {
            switch effects[offset] {
            case .write, .send: return true
            default: continue
            }
        }
        return false
    }

    /// Whether a probe point starts a synchronization. The lengths are compared first: two
    /// different strings were compared through the runtime, at every probe point.
    @inline(__always)
    static func isSyncStart(_ name: String) -> Bool {
        name.utf8.count == 10 && name == "sync.start"
    }

    /// Counts a write the device carried out; kills the device when it is the write a
    /// `WriteKill` names (true: the device was killed, its remaining effects are dropped).
    @inline(__always)
    func countWrite(device index: Int) -> Bool {
        writeCounts[index] += 1
        // Inlined for this test alone: nearly every run has no write-counted kill.
        guard killAfterWrite != nil else { return false }
        return killsAfterCountedWrite(device: index)
    }

    /// `countWrite`'s kill, when a `WriteKill` is set: true when it killed the device.
    private func killsAfterCountedWrite(device index: Int) -> Bool {
        guard let target = killAfterWrite, target.write == writeCounts[index],
              target.device == devices[index].name else { return false }
        record("script", "kill.after-write", [TraceField("device", .string(devices[index].name)),
                                              TraceField("write", .int(Int64(target.write)))])
        kill(index)
        return true
    }

    func makeWaiter(for device: Int, action: String) -> WaiterID {
        waiters.make(device: device, line: currentLine, action: action)
    }

    /// A killed app finishes nothing: the actions the script waits for on it end there.
    func releaseWaiters(of device: Int) {
        waiters.completeAll(of: device)
    }

    /// The engine ended a waiting action without doing it: the wait ends, the reason is
    /// traced at the action's line, and the run's leftovers list it.
    private func actionFailed(_ waiter: WaiterID, reason: String, device index: Int) {
        let action = waiters.complete(waiter.rawValue) ?? (currentLine, "action")
        record(devices[index].name, "action.failed", [TraceField("line", .int(Int64(action.line))),
                                                      TraceField("action", .string(action.name)),
                                                      TraceField("reason", .string(reason))])
        failedActions.append(Leftovers.UnfinishedAction(
            line: action.line, device: devices[index].name, action: action.name, reason: reason,
            failed: true))
    }

    /// Remembers the CloudKit errors a device's requests were refused with (`refused`).
    func noteRefusals(_ response: CloudResponse, device index: Int) {
        switch response {
        case .failure(let error):
            refusals[index].insert(error.code)
        case .recordsModified(let results), .recordsFetched(let results):
            for case .failed(_, let error) in results { refusals[index].insert(error.code) }
        default:
            break
        }
    }
}
