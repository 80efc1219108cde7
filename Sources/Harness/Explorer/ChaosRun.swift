import Checkers
import CloudSim
import Device
import Kernel
import LocalStore
import Scenario
import SyncContract

/// How the explorer runs a seed.
public struct ExploreOptions: Hashable, Sendable {
    /// The engines a run may use, and the one that overrides the file's (`--engine`).
    public var engines: EngineRegistry
    public var engine: String?
    /// Test-only: kill a device right after its engine's Nth write (the contract suite).
    public var killAfterWrite: WriteKill?
    /// Keep every trace event (for `--doublecheck` and `synclab run` on a chaos file).
    public var recordTrace: Bool
    /// Bounds on one whole run, as `RunOptions` has them (nil: the file's `budget`).
    public var maxEvents: Int?
    public var maxTime: SimTime?
    /// The most runs shrinking one finding may make.
    public var shrinkRuns: Int
    /// Shrink explained violations too, not only new findings.
    public var shrinkExplained: Bool
    /// A deliberately broken engine variant; tests only (see `ExplorerCanary`).
    var canary: ExplorerCanary?
    /// Tests only: `RunOptions.probesPassInLine`.
    var probesPassInLine = true

    /// The options of one run of the world on a scenario.
    func runOptions(seed: UInt64, scenario: ScenarioFile) -> RunOptions {
        var options = RunOptions(
            engines: engines, seed: seed, maxEvents: maxEvents, maxTime: maxTime,
            recordTrace: recordTrace)
        options.engine = engine
        options.killAfterWrite = killAfterWrite
        options.probesPassInLine = probesPassInLine
        canary?.configure(&options, scenario: scenario)
        return options
    }

    public init(
        engines: EngineRegistry,
        engine: String? = nil,
        recordTrace: Bool = false,
        maxEvents: Int? = nil,
        maxTime: SimTime? = nil,
        shrinkRuns: Int = 400,
        shrinkExplained: Bool = false
    ) {
        self.engines = engines
        self.engine = engine
        self.recordTrace = recordTrace
        self.maxEvents = maxEvents
        self.maxTime = maxTime
        self.shrinkRuns = shrinkRuns
        self.shrinkExplained = shrinkExplained
    }
}

/// One run of a chaos file in a fresh world: the ordinary timeline, the fault phase (drawn,
/// or replayed from a list of steps), the heal phase, then the checks.
///
/// It runs every statement through the world exactly as `synclab run` would run the same
/// line, so a run written out as a plain scenario replays byte for byte.
///
/// `@exclusivity(unchecked)` (the runtime checks ran on every access of a sweep): on
/// the stored properties the run changes itself. The world, the devices and the checkers it
/// calls know no `ChaosRun`, so nothing can reach a property while the run is changing it
/// (a statement run with `scratch` lent to the world included): no two accesses overlap.
final class ChaosRun {
    enum Phase { case plain, faults, heal }

    let plan: ChaosPlan
    let world: World
    @exclusivity(unchecked) private(set) var ledger: SaveLedger
    /// The fault phase's steps, as run.
    @exclusivity(unchecked) private(set) var steps: [ChaosStep] = []
    /// The heal phase's statements, as run.
    @exclusivity(unchecked) private(set) var healActions: [ChaosAction] = []
    /// Each workload device a fault signed out or into another account, with the account
    /// it left, in the order they were first struck: the heal signs it back in.
    @exclusivity(unchecked) private var accountHomes: [(device: String, account: String)] = []
    /// When the fault phase began.
    @exclusivity(unchecked) private(set) var start = SimTime.zero
    @exclusivity(unchecked) private(set) var results: [ExpectationResult] = []
    @exclusivity(unchecked) private(set) var cloudFaults: CloudFaultState
    /// Every label bound so far, with its entity, in order.
    @exclusivity(unchecked) private(set) var labels: [(label: String, entity: String)] {
        didSet { noteEntities() }
    }
    /// The entity names of `labels`, each once, in order of first use, and each label's
    /// position among them: `heldPositions` tells the wanted entities apart by number, not by
    /// comparing names label after label.
    @exclusivity(unchecked) private var entityNames: [String] = []
    @exclusivity(unchecked) private var labelEntities: [Int] = []
    @exclusivity(unchecked) private(set) var phase = Phase.plain
    /// Devices a `stop` of this run left stopped (until a `start` or a launch): the heal starts
    /// them whatever state name their engine shows (history's is `disabled`).
    @exclusivity(unchecked) private var stoppedByRun: [String] = []
    /// Devices that batch-deleted since they last launched, in order: on an engine whose
    /// batch-deleted models return at the next launch (DEL-2), the heal launches them again.
    @exclusivity(unchecked) private var batchDeletedSinceLaunch: [String] = []
    /// The roots a fault-phase step shared, each with the account invited, in order (the
    /// ones an `unshare` of the mix picks).
    @exclusivity(unchecked) private(set) var shares: [(label: String, account: String)] = []
    @exclusivity(unchecked) private var scratch: [ExpectationResult] = []
    /// The record name of each label, once known (labels never change records).
    /// (Each label filed as a `HashedRecordName`, hashed as a name is: `String`'s own hashing
    /// was most of a lookup.)
    @exclusivity(unchecked) private var recordOf: [HashedRecordName: String] = [:]
    /// `recordOf` of each position in `labels`, filled as `heldPositions` meets them.
    /// (With their `RecordNameHash`, so the observation does not hash a name at every draw;
    /// boxed and unretained, so that a name is handed to it without a retain and a release.)
    @exclusivity(unchecked) private var positionRecords: [Unmanaged<RecordNameBox>?] = []
    /// The boxes `positionRecords` points to, alive as long as the run.
    @exclusivity(unchecked) private var recordBoxes: [RecordNameBox] = []
    /// Per device, per position in `labels`: the model last found for that label there.
    @exclusivity(unchecked) private var modelCache: [[ModelID?]] = []
    /// Set before the run for one whose coverage is read (`Explorer.covered`): the world
    /// notes its probe pairs and the heal how close the checks came (`nearMisses`).
    @exclusivity(unchecked) var readsCoverage = false {
        didSet {
            world.probePairs = readsCoverage ? ProbePairTally(devices: world.devices.count) : nil
        }
    }
    /// `close:` features of `RunCoverage`, when `readsCoverage`.
    @exclusivity(unchecked) private(set) var nearMisses: [String] = []
    /// `WantedEntities` of the workload's entities (what most draws ask for), with the count
    /// of `entityNames` it was made for (positions never change; names are only added).
    @exclusivity(unchecked) private var workloadWanted: (count: Int, wanted: WantedEntities)?
    /// The list `heldPositions` last returned, whose storage its next call reuses.
    @exclusivity(unchecked) private var heldKept: [Int] = []
    /// `firedRules` as last built, with the number of rules of the world's sets then.
    @exclusivity(unchecked) private var firedRulesKept: (count: Int, rules: [String])?
    /// The workload's devices with their index in the world (nil for a name it lacks), so
    /// the draw does not hash their names at every step.
    let planDevices: [(name: String, index: Int?)]
    /// The relationships with a `deny` delete rule of each entity of the schema, in the
    /// schema's order (a drawn delete asks for every model it might pick).
    private let denyRules: [(entity: String, relationships: [String])]
    /// The entities with a relationship whose delete rule cascades: deleting a model of any
    /// other entity deletes that model alone.
    private let cascadingEntities: [String]

    init(plan: ChaosPlan, seed: UInt64, options: ExploreOptions) {
        self.plan = plan
        let runOptions = options.runOptions(seed: seed, scenario: plan.scenario)
        world = World(
            scenario: plan.scenario, seed: seed, options: runOptions, schema: plan.schema)
        options.canary?.install(
            in: world, pageSize: plan.scenario.cloud.pageSize, options: runOptions)
        ledger = SaveLedger(deviceCount: world.devices.count, schema: world.schema)
        ledger.reserveCapacity(operations: plan.operations)
        planDevices = plan.devices.map { [world] name in (name, world.deviceIndex[name]) }
        denyRules = world.schema.entities.map { entity in
            (entity.name, entity.relationships.filter { $0.deleteRule == .deny }.map(\.name))
        }
        cascadingEntities = world.schema.entities.filter { entity in
            entity.relationships.contains { $0.deleteRule == .cascade }
        }.map(\.name)
        cloudFaults = CloudFaultState(
            setupLatency: plan.setupLatency, setupPushDrop: plan.setupPushDrop)
        labels = plan.plainLabels
        noteEntities()
        world.afterTriggerAction = { [unowned self] index in
            let device = self.world.devices[index]
            guard device.host == nil else { return }
            self.ledger.hold(index: index, store: device.store)
        }
        world.afterBatchDelete = { [unowned self] index, models in
            let device = self.world.devices[index]
            let observation = device.observation
            self.ledger.noteBatchDeletion(
                device: index, account: device.account ?? "",
                records: models.compactMap { observation.recordName(of: $0) }, now: self.world.now)
        }
        world.beforeUserPurge = { [unowned self] zones in
            // Every save made so far is noted first: the purge supersedes those.
            self.collectLedger(snapshot: nil)
            for zone in zones {
                self.ledger.notePurge(
                    account: zone.owner,
                    records: self.world.cloud.records(in: zone).map(\.recordName),
                    now: self.world.now)
            }
        }
        // Sized once for the labels a run can bind (its file's, and one an operation at
        // most): grown label by label, it was rehashed about once per label.
        recordOf.reserveCapacity(plan.plainLabels.count + plan.operations)
        labels.reserveCapacity(plan.plainLabels.count + plan.operations)
        steps.reserveCapacity(plan.operations)
        world.record("script", "run.start", [
            TraceField("file", .string(plan.scenario.file)),
            TraceField("seed", .string(String(seed))),
        ])
    }

    /// Launches the devices and runs the file's ordinary timeline.
    func runPlain() {
        world.start()
        world.run(until: .zero)
        for statement in plan.scenario.timeline {
            guard world.failure == nil else { break }
            let index = statement.line - 1
            let text = index < plan.lines.count
                ? ScenarioRunner.statementText(Substring(plan.lines[index])) : ""
            var action: DeviceActionStatement?
            if case .deviceAction(let bound) = statement.kind { action = bound }
            let snapshot = action.flatMap { self.snapshot(before: $0) }
            run(statement, text: text, snapshot: snapshot)
            if let action { noteLaunches(action) }
        }
        world.labels.resolveNames(devices: world.devices)
        start = world.now
        phase = .faults
    }

    /// Runs the world until `offset` into the fault phase, as a `wait` line would.
    func advance(to offset: SimTime) {
        guard world.failure == nil else { return }
        let target = start.adding(offset)
        if target > world.now {
            perform(.wait(TimeSpan(microseconds: target.microseconds - world.now.microseconds)))
        }
    }

    /// Runs one fault-phase step at its time.
    /// Consuming: the step moves into `steps` (a copy retained every reference of its action).
    func execute(_ step: consuming ChaosStep) {
        // The last step's offset read in place (`steps.last` copied the whole step out).
        precondition(steps.isEmpty || steps[steps.count - 1].offset <= step.offset,
            "fault-phase steps run in time order")
        precondition(phase == .faults, "a fault-phase step outside the fault phase")
        advance(to: step.offset)
        guard world.failure == nil else { return }
        noteAccountHome(before: step.action)
        perform(step.action)
        switch step.action {
        case .insert(_, let entity, let label, _),
            .trigger(_, _, .insert(_, let entity, let label, _)):
            // A racing insert binds its label when its trigger fires; until then the label
            // means no model anywhere.
            labels.append((label, entity))
        default: break
        }
        if case .sharing(_, .share(let label, let account, _)) = step.action,
            !shares.contains(where: { $0 == (label, account) })
        {
            shares.append((label, account))
        }
        steps.append(step)
    }

    /// Notes the account a device is in before a step that signs it out or into another.
    private func noteAccountHome(before action: ChaosAction) {
        var name: String?
        switch action {
        case .device(let device, .signOut), .signIn(let device, _): name = device
        default: break
        }
        guard let name, !accountHomes.contains(where: { $0.device == name }),
            let index = world.deviceIndex[name], let account = world.devices[index].account
        else { return }
        accountHomes.append((name, account))
    }

    /// Runs a drawn or listed action as a statement of the timeline.
    func perform(_ action: ChaosAction, location: SourceLocation? = nil) {
        if case .wait(let span) = action {
            // No statement built and freed for the most common action: a wait notes nothing
            // but what the ledger reads after it.
            world.wait(span, line: (location ?? plan.location).line)
            collectLedger(snapshot: nil)
            return
        }
        let location = location ?? plan.location
        // The snapshot and the statement held as values, never as optionals: an optional of
        // either was destroyed through its type's metadata, at every drawn action.
        if let index = savingDevice(of: action) {
            let snapshot = self.snapshot(before: action, on: index)
            runStatement(of: action, at: location)
            collectLedger(snapshot: snapshot)
        } else {
            runStatement(of: action, at: location)
            collectLedger(snapshot: nil)
        }
        // What `noteLaunches` notes, told from the action: a statement's payload copied out
        // of it retained every reference it holds.
        switch action {
        case .device(let device, .stop):
            if !stoppedByRun.contains(device) { stoppedByRun.append(device) }
        case .device(let device, .start):
            stoppedByRun.removeAll { $0 == device }
        case .device(let device, .launch):
            stoppedByRun.removeAll { $0 == device }
            noteLaunch(of: device)
        case .batchDelete(let device, _, _): noteBatchDeletion(on: device)
        default: break
        }
    }

    /// Runs a drawn action's statement (the ledger is read after it by the caller).
    private func runStatement(of action: ChaosAction, at location: SourceLocation) {
        if action.isDeviceAction {
            // Run as the world runs its timeline statement, without one built around it (a
            // heap box, and the statement copied out of it to be run). A device statement
            // notes no cloud fault.
            world.run(action.statementOfDevice(at: location), line: location.line)
        } else {
            let statement = action.statement(at: location)
            cloudFaults.note(statement.kind, now: world.now)
            if case .expectation = statement.kind {
                world.run(statement, results: &results, text: action.text)
            } else {
                world.run(statement, results: &scratch, text: "")
            }
        }
    }

    /// Notes a device's batch delete, and its launch, which brings batch-deleted models back
    /// on an engine whose profile says so (DEL-2).
    private func noteLaunches(_ statement: DeviceActionStatement) {
        let device = statement.device.value
        switch statement.action {
        case .batchDelete: noteBatchDeletion(on: device)
        case .launch: noteLaunch(of: device)
        default: break
        }
    }

    private func noteBatchDeletion(on device: String) {
        if !batchDeletedSinceLaunch.contains(device) { batchDeletedSinceLaunch.append(device) }
    }

    private func noteLaunch(of device: String) {
        batchDeletedSinceLaunch.removeAll { $0 == device }
    }

    /// `text` is the statement's line, which only an expectation's result quotes: built only
    /// for those (a drawn action's text was about 1% of a seed, formatting every `wait`).
    /// `snapshot`: what the ledger must know of the device before the statement, if it saves.
    private func run(
        _ statement: TimelineStatement, text: @autoclosure () -> String,
        snapshot: SaveLedger.Snapshot?
    ) {
        cloudFaults.note(statement.kind, now: world.now)
        if case .expectation = statement.kind {
            world.run(statement, results: &results, text: text())
        } else {
            world.run(statement, results: &scratch, text: "")
        }
        collectLedger(snapshot: snapshot)
    }

    /// Reads into the ledger what the app saved since its last read (`snapshot`: what the
    /// device of the statement just run held before it).
    private func collectLedger(snapshot: SaveLedger.Snapshot?) {
        // Nothing to read when no store changed: the ledger's call set up its closures and
        // checked the uniqueness of its lists for nothing, after many statements.
        guard world.storeChanged.contains(true) else { return }
        // Read unretained (`World.unretainedDevices`): each device read out of the list was
        // retained and released around each question.
        let devices = world.unretainedDevices
        ledger.collect(
            deviceCount: devices.count, storeChanged: &world.storeChanged, now: world.now,
            snapshot: snapshot, appAuthor: Device.appAuthor,
            // An extension shares its app's store (EXT-1): the ledger reads it once.
            store: { devices[$0]._withUnsafeGuaranteedRef { $0.host == nil ? $0.store : nil } },
            account: { devices[$0]._withUnsafeGuaranteedRef { $0.account } },
            observing: { devices[$0]._withUnsafeGuaranteedRef { $0.observation } })
    }

    /// What the ledger must know before a device's statement of the file that may save.
    private func snapshot(before action: DeviceActionStatement) -> SaveLedger.Snapshot? {
        guard let index = world.index(ofDevice: action.device.value) else { return nil }
        switch action.action {
        case .insert: return snapshot(insertOn: index)
        case .update(let named, _): return snapshot(of: named.value, on: index, deletes: false)
        case .delete(let named): return snapshot(of: named.value, on: index, deletes: true)
        case .save: return snapshot(of: nil, on: index, deletes: true)
        default: return nil
        }
    }

    /// What the ledger must know before a drawn action that saves (the saves of a file's
    /// statement, `snapshot(before:)` of its statement, told from the action).
    /// Taken on the device `savingDevice(of:)` found for the action.
    private func snapshot(before action: ChaosAction, on index: Int) -> SaveLedger.Snapshot {
        switch action {
        case .insert: return snapshot(insertOn: index)
        case .update(_, let label, _): return snapshot(of: label, on: index, deletes: false)
        case .delete(_, let label): return snapshot(deleting: label, on: index)
        default: preconditionFailure("only an insert, an update or a delete is snapshot")
        }
    }

    /// The index of the device of a drawn action the ledger needs a snapshot before (an
    /// insert, an update, a delete); nil for any other action.
    private func savingDevice(of action: ChaosAction) -> Int? {
        switch action {
        case .insert(let device, _, _, _), .update(let device, _, _), .delete(let device, _):
            return world.index(ofDevice: device)
        default: return nil
        }
    }

    private func snapshot(insertOn index: Int) -> SaveLedger.Snapshot {
        // `SortedMap()`: the empty literal built the map from a list of pairs.
        SaveLedger.Snapshot(device: index, model: nil, values: SortedMap(), recordNames: [])
    }

    /// What the ledger must know before a statement of the device at `index` that saves
    /// the model of `label` (nil: none) and may delete models.
    private func snapshot(of label: String?, on index: Int, deletes: Bool)
        -> SaveLedger.Snapshot
    {
        // Read once for the label and the snapshot: each read of the disk copies its
        // references, and the observation is built anew after events.
        let (store, observation) = disk(of: index)
        let model = label.flatMap {
            modelID($0, on: index, observation: observation, store: store)
        }
        return SaveLedger.snapshot(
            index: index, model: model, deletes: deletes, store: store, observation: observation)
    }

    /// `snapshot(of: label, on: index, deletes: true)` for a drawn delete, with the record
    /// name of the one model it deletes rather than of every model of the store (the names of
    /// a whole store were listed, and freed, at every delete), when that is all it deletes:
    /// the model the world will find for the label (nil if it would not find it yet), of an
    /// entity no delete rule cascades from, and saved in the store, with no armed trigger
    /// that could delete during the statement.
    private func snapshot(deleting label: String, on index: Int) -> SaveLedger.Snapshot {
        guard !triggersMayDelete else { return snapshot(of: label, on: index, deletes: true) }
        let (store, observation) = disk(of: index)
        // Not resolving the table's names (that is the world's to do when it runs the delete):
        // unresolved, a label on another device means no model here, and the whole list is
        // taken.
        guard let target = world.labels.model(label, on: index, devices: world.devices),
            let entity = store.entity(of: target), !cascadingEntities.contains(entity)
        else { return snapshot(of: label, on: index, deletes: true) }
        let model = modelID(label, on: index, observation: observation, store: store)
        return SaveLedger.Snapshot(
            device: index, model: model,
            values: model.flatMap { store.values(of: $0) } ?? SortedMap(),
            recordNames: observation.recordName(of: target).map { [(target, $0)] } ?? [])
    }

    /// Whether an unfired trigger runs a device action other than an insert.
    private var triggersMayDelete: Bool {
        world.triggers.contains { trigger in
            guard !trigger.fired, case .device(let statement) = trigger.action else { return false }
            if case .insert = statement.action { return false }
            return true
        }
    }

    /// Keeps `entityNames` and `labelEntities` in step with the labels bound so far.
    private func noteEntities() {
        precondition(labelEntities.count <= labels.count, "labels are only ever added")
        for position in labelEntities.count..<labels.count {
            let entity = labels[position].entity
            if let known = entityNames.firstIndex(of: entity) {
                labelEntities.append(known)
            } else {
                labelEntities.append(entityNames.count)
                entityNames.append(entity)
            }
        }
    }

    /// The positions in `labels` of the labels of `entities` whose model the device holds
    /// now, in binding order. (Positions, not the labels: copying each label and its entity
    /// out retained both strings, for every held label at every draw.)
    func heldPositions(_ entities: [String], on index: Int) -> [Int] {
        if modelCache.count != world.devices.count {
            modelCache = Array(repeating: [], count: world.devices.count)
        }
        // Read as locals: no exclusivity check of the run's properties per label.
        let labels = self.labels
        // Read once: every access to the disk through the device copies its references.
        let (store, observation) = disk(of: index)
        // Taken out, so that changing them does not copy the whole row on every call.
        var cache = modelCache[index]
        modelCache[index] = []
        // Grown one label at a time (a draw binds at most one): appended in a loop, the
        // generic `append(contentsOf:)` of a repeated element cost more than the entries.
        // Sized for the labels a run can bind, once: grown label by label, each list was
        // reallocated over and over.
        let room = max(labels.count, plan.plainLabels.count + plan.operations)
        if cache.capacity < labels.count { cache.reserveCapacity(room) }
        while cache.count < labels.count { cache.append(nil) }
        var records = positionRecords
        positionRecords = []
        if records.capacity < labels.count { records.reserveCapacity(room) }
        while records.count < labels.count { records.append(nil) }
        // Names compared once per call, not per label (the workload's: once per entity added).
        let wanted: WantedEntities
        let ofWorkload = entities == plan.entityNames
        if ofWorkload, let kept = workloadWanted, kept.count == entityNames.count {
            wanted = kept.wanted
        } else {
            wanted = WantedEntities(entityNames, wanted: entities)
            if ofWorkload { workloadWanted = (entityNames.count, wanted) }
        }
        // The last call's list again, once its caller let go of it (a draw does at once):
        // emptied in place, not allocated anew on every call.
        var held = heldKept
        heldKept = []
        held.removeAll(keepingCapacity: true)
        if held.capacity < labels.count { held.reserveCapacity(room) }
        walk(labels, wanted: wanted, on: index, store: store, observation: observation,
             names: &records, models: &cache, held: &held)
        modelCache[index] = cache
        positionRecords = records
        heldKept = held
        return held
    }

    /// `heldPositions`' walk of the labels: appends to `held` the position of each wanted
    /// label whose model the device holds, keeping the names and models it finds in `names`
    /// and `models` (each as long as `labels` at least).
    @inline(__always)
    private func walk(
        _ labels: [(label: String, entity: String)], wanted: WantedEntities, on index: Int,
        store: Store, observation: any EngineObservation,
        names records: inout [Unmanaged<RecordNameBox>?], models cache: inout [ModelID?],
        held: inout [Int]
    ) {
        precondition(records.count >= labels.count && cache.count >= labels.count,
                     "a name and a model place for every label")
        // Read as a local: no exclusivity check of the run's property per label.
        let labelEntities = self.labelEntities
        // Walked through the lists' storage: each access was bounds-checked, some twice.
        records.withUnsafeMutableBufferPointer { names in
            cache.withUnsafeMutableBufferPointer { models in
                for position in 0..<labels.count {
                    guard wanted.contains(labelEntities[position]) else { continue }
                    if case .none = names[position] {
                        names[position] = recordBox(of: labels[position].label)
                    }
                    guard let box = names[position] else {
                        if world.labels.model(
                            labels[position].label, on: index, devices: world.devices) != nil
                        {
                            held.append(position)
                        }
                        continue
                    }
                    let cached = models[position]
                    let found: ModelID? = box._withUnsafeGuaranteedRef { entry in
                        // A model found before is still the label's while it holds the
                        // label's record.
                        if let id = cached, store.contains(id),
                            observation.isModel(id, boundTo: entry.name)
                        {
                            return id
                        }
                        return observation.model(forRecord: entry.name).flatMap {
                            store.contains($0) ? $0 : nil
                        }
                    }
                    // Written only on a change (each write checked the list's uniqueness).
                    if found != cached { models[position] = found }
                    if found != nil { held.append(position) }
                }
            }
        }
    }

    /// Which entities of `entityNames`, by position, a caller of `heldPositions` wants: a bit
    /// each (a list of flags only past 64 entities). The list was allocated on every call.
    /// Internal, not private, for `WantedEntitiesTests`.
    struct WantedEntities {
        private var bits: UInt64 = 0
        private var flags: [Bool] = []

        init(_ names: [String], wanted: [String]) {
            if names.count <= 64 {
                for (position, name) in names.enumerated() where wanted.contains(name) {
                    bits |= 1 << UInt64(position)
                }
            } else {
                flags = names.map { wanted.contains($0) }
            }
        }

        func contains(_ position: Int) -> Bool {
            flags.isEmpty ? bits & (1 << UInt64(position)) != 0 : flags[position]
        }
    }

    /// The entity's relationships with a `deny` delete rule; nil for an entity the schema
    /// lacks (`Schema.entity(named:)`'s first match).
    func denyRelationships(of entity: String) -> [String]? {
        denyRules.first { $0.entity == entity }?.relationships
    }

    /// A label's record name, once the label table knows it.
    private func record(of label: String) -> String? {
        let key = HashedRecordName(label)
        if let name = recordOf[key] { return name }
        guard let name = world.labels.recordName(of: label) else { return nil }
        recordOf[key] = name
        return name
    }

    /// The model a label means on a device now, as the world would resolve it; nil when the
    /// device does not hold it.
    func modelID(_ label: String, on index: Int) -> ModelID? {
        guard let name = record(of: label) else {
            return world.labels.model(label, on: index, devices: world.devices)
        }
        let (store, observation) = disk(of: index)
        return model(forRecord: name, observation: observation, store: store)
    }

    /// A device's store and observation, the device read unretained
    /// (`World.unretainedDevices`: read out of `devices`, it was retained and released).
    func disk(of index: Int) -> (store: Store, observation: any EngineObservation) {
        world.unretainedDevices[index]._withUnsafeGuaranteedRef { ($0.store, $0.observation) }
    }

    /// `modelID(_:on:)` with the device's observation and store read once by the caller, for
    /// a loop over labels (each read of the observation builds it anew).
    func modelID(
        _ label: String, on index: Int, observation: any EngineObservation, store: Store
    ) -> ModelID? {
        guard let name = record(of: label) else {
            return world.labels.model(label, on: index, devices: world.devices)
        }
        return model(forRecord: name, observation: observation, store: store)
    }

    /// `modelID(_:on:observation:store:)` of the label at a position of `labels`, with the
    /// record name `heldPositions` noted for the position (no label hashed to find it).
    func modelID(
        atPosition position: Int, on index: Int, observation: any EngineObservation, store: Store
    ) -> ModelID? {
        guard position < positionRecords.count, let box = positionRecords[position] else {
            return modelID(labels[position].label, on: index, observation: observation,
                           store: store)
        }
        return box._withUnsafeGuaranteedRef {
            model(forRecord: $0.name, observation: observation, store: store)
        }
    }

    /// `record(of:)` of a label in a box `recordBoxes` keeps, unretained; nil when the label
    /// has no record name yet.
    private func recordBox(of label: String) -> Unmanaged<RecordNameBox>? {
        guard let name = record(of: label) else { return nil }
        let box = RecordNameBox(HashedRecordName(name))
        recordBoxes.append(box)
        return Unmanaged.passUnretained(box)
    }

    private func model(forRecord name: String, observation: any EngineObservation, store: Store)
        -> ModelID?
    {
        guard let id = observation.model(forRecord: name), store.contains(id) else { return nil }
        return id
    }

    private func model(
        forRecord name: HashedRecordName, observation: any EngineObservation, store: Store
    ) -> ModelID? {
        guard let id = observation.model(forRecord: name), store.contains(id) else { return nil }
        return id
    }

    /// Lifts every fault, waits out throttle and outage windows, has every device
    /// synchronize twice ("Sync Now", which also retries what was set aside or paused, and
    /// makes each device download what the others uploaded, pushes or not), then lets the
    /// world settle within the heal budget.
    func heal() {
        guard world.failure == nil else { return }
        if readsCoverage { noteClosenessBeforeHeal() }
        phase = .heal
        var lifting: [ChaosAction] = []
        for device in world.devices where !device.isOnline {
            lifting.append(.device(device.name, .online))
        }
        for device in world.devices where !device.isRunning {
            lifting.append(.device(device.name, .launch))
        }
        if world.profile.batchDeletesReturnAtLaunch {
            for device in world.devices
            where device.isRunning && batchDeletedSinceLaunch.contains(device.name) {
                lifting += [.device(device.name, .kill), .device(device.name, .launch)]
            }
        }
        for (index, device) in world.devices.enumerated()
        where device.isRunning
            && (world.engineState(of: index) == .stopped || stoppedByRun.contains(device.name)) {
            lifting.append(.device(device.name, .start))
        }
        for device in world.devices where device.accountStatus == .temporarilyUnavailable {
            lifting.append(.device(device.name, .accountAvailable))
        }
        for home in accountHomes {
            guard let index = world.deviceIndex[home.device],
                world.devices[index].account != home.account else { continue }
            lifting.append(.signIn(device: home.device, account: home.account))
        }
        lifting += cloudFaults.liftingActions
        if cloudFaults.quietAt > world.now {
            let rest = cloudFaults.quietAt.microseconds - world.now.microseconds
            lifting.append(.wait(TimeSpan(microseconds: rest)))
        }
        for action in lifting where world.failure == nil {
            perform(action, location: plan.healLocation)
            healActions.append(action)
        }
        // Liveness is timed from here: the syncs below do what a plain settle would wait for.
        let syncsBegan = world.now
        for _ in 0..<2 {
            relaunchKilled()
            for device in world.devices where device.account != nil && device.isRunning {
                guard world.failure == nil else { return }
                let action = ChaosAction.device(device.name, .syncAndWait)
                perform(action, location: plan.healLocation)
                healActions.append(action)
            }
        }
        relaunchKilled()
        relaunchToDownload()
        guard world.failure == nil else { return }
        settle(within: plan.healBudget, since: syncsBegan)
        healActions.append(.settle)
    }

    /// On an engine whose `sync` cannot make it download, launches each signed-in device
    /// again once the heal's syncs have exported everything: its launch imports (mirror,
    /// MIR-9), so a device that missed a push still gets what the others uploaded.
    private func relaunchToDownload() {
        guard world.profile.healRelaunchesToDownload else { return }
        for device in world.devices where device.account != nil && device.isRunning {
            guard world.failure == nil else { return }
            for action in [ChaosAction.device(device.name, .kill), .device(device.name, .launch)] {
                perform(action, location: plan.healLocation)
                healActions.append(action)
            }
        }
    }

    /// Launches again each device a kill stopped while healing (the heal launched every
    /// device; a `WriteKill` can fall on a write the heal's own syncs make): the heal ends
    /// with every app running, as it promises, not with the kill's device left dead.
    private func relaunchKilled() {
        for device in world.devices where !device.isRunning && world.failure == nil {
            let action = ChaosAction.device(device.name, .launch)
            perform(action, location: plan.healLocation)
            healActions.append(action)
        }
    }

    /// `settle` with the heal budget as its bound.
    private func settle(within budget: SimTime, since syncsBegan: SimTime) {
        world.currentLine = plan.healLocation.line
        world.run(while: { !world.isSettled }, bound: budget, what: "settling after the heal",
                  passesInLine: true)
        // Liveness came close: the heal's syncs and settle took more than half of its bound
        // (the settle alone has little left to wait for once the syncs are done).
        if readsCoverage, world.failure == nil,
            (world.now - syncsBegan).microseconds * 2 > budget.microseconds
        {
            nearMisses.append("close:liveness")
        }
        if world.failure == nil { world.run(until: world.now) }
        // A trigger may have saved while the heal settled.
        collectLedger(snapshot: nil)
    }

    /// The rules fired anywhere, sorted.
    ///
    /// Kept from the last call while no rule was added: the check and the seed's result each
    /// ask after the run, and the union hashed every rule of every device again. The world's
    /// sets only ever grow, so an unchanged total count means unchanged sets.
    var firedRules: [String] {
        let count = world.firedRules.reduce(0) { $0 + $1.count }
        if let kept = firedRulesKept, kept.count == count { return kept.rules }
        // Sorted together and told apart by neighbours: a union of the sets hashed every rule.
        var all: [String] = []
        all.reserveCapacity(count)
        // Each set's rules in its own order: the list is sorted before it is read.
        for fired in world.firedRules { all.append(contentsOf: fired) }
        all.sort()
        var rules: [String] = []
        rules.reserveCapacity(all.count)
        for rule in all where rules.last != rule { rules.append(rule) }
        firedRulesKept = (count, rules)
        return rules
    }

    /// Runs every checker and classifies what they found against the LIM-* rules that fired.
    func check() -> [InvariantViolation] {
        var findings: [CheckerFinding] = []
        if let failure = world.failure {
            let bound = failure.message.contains("budget exceeded")
                || failure.message.contains("did not happen within")
                || failure.message.hasPrefix("livelock:")
            let check: InvariantCheck = phase == .heal || bound ? .liveness : .runtime
            findings.append(CheckerFinding(check,
                "line \(failure.line): \(failure.message) (at \(failure.time))"))
        } else {
            findings += stateFindings()
        }
        for result in results where !result.passed {
            findings.append(CheckerFinding(.expectation,
                "line \(result.line): expectation failed: \(result.wanted); found: "
                    + result.found))
        }
        let fired = firedRules
        let catalogue = world.profile.catalogue
        // Each check's explainers among the fired rules, found once: a run's many findings
        // share a few checks, and each search read the whole catalogue.
        var explainers: [(check: InvariantCheck, fired: [String])] = []
        return Self.capped(findings).map { finding in
            if let known = explainers.first(where: { $0.check == finding.check }) {
                return finding.classified(explainedBy: known.fired)
            }
            let violation = finding.classified(firedRules: fired, catalogue: catalogue)
            explainers.append((finding.check, violation.explainedBy))
            return violation
        }
    }

    /// What the checkers of the world's state (convergence, lost change, duplicate identity,
    /// resurrection) find in it now.
    private func stateFindings() -> [CheckerFinding] {
        let names = RecordLabels(
            labels: labels.map(\.label), recordName: world.labels.recordName(of:))
        // Read once for every checker: the world does not change while they run.
        let snapshot = world.snapshot()
        var findings = ConvergenceChecker.check(
            snapshot, exempting: true, describe: names.describe).map {
            CheckerFinding(.convergence, $0, expectations: ["expect converged"])
        }
        let ledger = ledger.attributingSignedOutChanges(to: world.devices.map(\.account))
            .attributingSharedRecords(
                snapshot, accounts: plan.scenario.accounts.map(\.name.value))
        findings += LostChangeChecker.check(snapshot, ledger: ledger, labels: names)
        findings += DuplicateIdentityChecker.check(snapshot, ledger: ledger)
        findings += ResurrectionChecker.check(snapshot, ledger: ledger, labels: names)
        return findings
    }

    /// How close the checks came, for a run whose coverage is read: what the state checkers
    /// find when the heal begins (what the heal then had to repair), as `close:CHECK:N` with
    /// N bucketed as AFL buckets hit counts (1, 2, 3-4, 5-8, 9+).
    private func noteClosenessBeforeHeal() {
        var counts: [InvariantCheck: Int] = [:]
        for finding in stateFindings() { counts[finding.check, default: 0] += 1 }
        for check in InvariantCheck.allCases {
            guard let count = counts[check] else { continue }
            nearMisses.append("close:\(check.rawValue):\(Self.bucket(count))")
        }
    }

    /// A count as the bucket a coverage feature names.
    static func bucket(_ count: Int) -> String {
        switch count {
        case ...2: return String(count)
        case 3...4: return "3-4"
        case 5...8: return "5-8"
        default: return "9+"
        }
    }

    /// At most `maximumPerCheck` findings of each check, the rest counted in one more.
    static let maximumPerCheck = 8

    private static func capped(_ findings: [CheckerFinding]) -> [CheckerFinding] {
        var kept: [CheckerFinding] = []
        for check in InvariantCheck.allCases {
            let ofCheck = findings.filter { $0.check == check }
            kept += ofCheck.prefix(maximumPerCheck)
            if ofCheck.count > maximumPerCheck {
                let rest = ofCheck.count - maximumPerCheck
                kept.append(
                    CheckerFinding(check, "… and \(rest) more \(check.rawValue) problems"))
            }
        }
        return kept
    }
}

extension SimTime {
    /// The same span as the format's `TimeSpan`.
    var timeSpan: TimeSpan { TimeSpan(microseconds: microseconds) }
}
