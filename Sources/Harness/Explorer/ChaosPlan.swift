import Kernel
import LocalStore
import Scenario

/// What a chaos file asks for, resolved once per file: the workload's devices, accounts and
/// entities, the fault lines, the mix, the heal budget and the setup's cloud settings.
struct ChaosPlan: Sendable {
    let scenario: ScenarioFile
    /// The scenario's schema as the store takes it, lowered once for every seed's world.
    let schema: Schema
    /// The file's lines, for the text of its expectations.
    let lines: [String]
    let operations: Int
    let interval: DurationSpecification
    /// The workload's devices, in declaration order of the line (or of the file).
    let devices: [String]
    /// Their accounts, each once, in the same order.
    let accounts: [String]
    /// Every account the file declares, in its order (the ones a switch may go to).
    let declaredAccounts: [String]
    let entities: [EntityDeclaration]
    /// Their names, in the same order (read by every drawn operation).
    let entityNames: [String]
    /// The names of those that are `sharable`, in the same order (the roots a `share` picks).
    let sharableEntityNames: [String]
    let faults: [ChaosFault]
    let mix: ChaosMix
    let healBudget: SimTime
    /// The cloud settings the heal phase restores after a `push-drop` or `latency` fault.
    let setupLatency: DurationSpecification
    let setupPushDrop: Probability
    /// Labels the ordinary timeline binds, with their entities, in file order.
    let plainLabels: [(label: String, entity: String)]
    /// What drawn labels start with (`c` unless the file's own labels use it).
    let labelPrefix: String
    /// Where failures of drawn steps and of the heal phase point.
    let location: SourceLocation
    let healLocation: SourceLocation
    /// Each entity of the file with its attributes outside its identity (those a drawn update
    /// may change), in the file's order: filtered once, not at every drawn update.
    private let updatable: [(entity: String, attributes: [AttributeDeclaration])]
    /// Each entity of the file and whether it has a to-one relationship (one a drawn link
    /// may set), in the file's order: found once, not for every label held at every drawn
    /// link (each look-up copied the entity's declaration out and destroyed it again).
    private let linkable: [(entity: String, hasToOne: Bool)]

    /// How many values each identity attribute draws from, so that identities collide.
    static let identityPoolSize = 3

    /// The source's lines as `split(separator: "\n", omittingEmptySubsequences: false)`
    /// gives them, found byte by byte: a line feed ends a line unless a carriage return comes
    /// right before it (`"\r\n"` is one `Character`, which that split leaves whole). The split
    /// walked characters, at the cost of grapheme breaking for every byte.
    static func lines(of source: String) -> [String] {
        var lines: [String] = []
        var source = source
        source.withUTF8 { bytes in
            var start = 0
            for position in bytes.indices where bytes[position] == 0x0A {
                if position > 0 && bytes[position - 1] == 0x0D { continue }
                lines.append(String(
                    decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]),
                    as: UTF8.self))
                start = position + 1
            }
            lines.append(String(
                decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
        }
        return lines
    }

    init(scenario: ScenarioFile, source: String) {
        precondition(scenario.chaos.workload != nil, "a chaos plan needs a workload")
        let chaos = scenario.chaos
        let workload = chaos.workload ?? ChaosWorkload(
            operations: Located(0, at: .start), location: .start)
        self.scenario = scenario
        schema = SchemaLowering.schema(of: scenario)
        lines = Self.lines(of: source)
        operations = workload.operations.value
        interval = workload.interval
        let named = workload.devices.map(\.value)
        devices = scenario.devices.filter { declaration in
            declaration.account != nil && (named.isEmpty || named.contains(declaration.name.value))
        }.map(\.name.value)
        var accounts: [String] = []
        for device in devices {
            guard let account = scenario.device(named: device)?.account?.value,
                !accounts.contains(account) else { continue }
            accounts.append(account)
        }
        self.accounts = accounts
        declaredAccounts = scenario.accounts.map(\.name.value)
        let entityNames = workload.entities.map(\.value)
        entities = scenario.entities.filter { entity in
            entity.isSynchronized
                && (entityNames.isEmpty || entityNames.contains(entity.name.value))
        }
        self.entityNames = entities.map(\.name.value)
        sharableEntityNames = entities.filter(\.isSharable).map(\.name.value)
        faults = chaos.faults
        mix = chaos.effectiveMix
        healBudget = SimTime(microseconds: chaos.effectiveHealBudget.microseconds)
        setupLatency = scenario.cloud.latency
        setupPushDrop = scenario.cloud.pushDrop
        plainLabels = Self.labels(of: scenario.timeline)
        labelPrefix = Self.prefix(avoiding: plainLabels.map(\.label))
        location = workload.location
        healLocation = chaos.heal?.location ?? workload.location
        updatable = scenario.entities.map { entity in
            (entity.name.value, entity.attributes.filter { attribute in
                !entity.identity.contains { $0.value == attribute.name.value }
            })
        }
        linkable = scenario.entities.map { entity in
            (entity.name.value, entity.relationships.contains { $0.cardinality == .toOne })
        }
    }

    /// Labels bound by inserts of the timeline and its triggers, in file order.
    private static func labels(of timeline: [TimelineStatement])
        -> [(label: String, entity: String)]
    {
        var labels: [(label: String, entity: String)] = []
        for statement in timeline {
            var action: DeviceAction?
            switch statement.kind {
            case .deviceAction(let device): action = device.action
            case .trigger(let trigger):
                if case .device(let device) = trigger.action { action = device.action }
            default: break
            }
            if case .insert(let entity, let label, _)? = action {
                labels.append((label.value, entity.value))
            }
        }
        return labels
    }

    /// The shortest run of `c`s that no label of the file starts a numbered label with.
    private static func prefix(avoiding labels: [String]) -> String {
        var prefix = "c"
        while labels.contains(where: { label in
            label.hasPrefix(prefix) && label.dropFirst(prefix.count).allSatisfy(\.isNumber)
        }) {
            prefix += "c"
        }
        return prefix
    }

    /// The declaration of an entity of the file.
    func entity(named name: String) -> EntityDeclaration? {
        scenario.entity(named: name)
    }

    /// The attributes outside its identity of the entity `entity(named:)` finds.
    func updatableAttributes(of name: String) -> [AttributeDeclaration]? {
        updatable.first { $0.entity == name }?.attributes
    }

    /// Whether the entity `entity(named:)` finds has a to-one relationship (false for an
    /// entity the file lacks).
    func hasToOneRelationship(_ name: String) -> Bool {
        linkable.first { $0.entity == name }?.hasToOne ?? false
    }

    /// The account a device is signed into at launch.
    func account(of device: String) -> String? {
        scenario.device(named: device)?.account?.value
    }
}
