import Scenario

/// `key=value` in a drawn insert or update: the literal and its text as the file writes it.
struct ChaosAssignment: Hashable, Sendable {
    var key: String
    var literal: ValueLiteral
    /// The text, nil when it is the literal's string between quotes (not built for a draw).
    var keptText: String?

    /// The value as the file writes it.
    var text: String {
        if let keptText { return keptText }
        guard case .string(let string) = literal else { return "" }
        return "\"" + string + "\""
    }
}

extension ChaosAssignment {
    /// An assignment written as `text`.
    init(key: String, literal: ValueLiteral, text: String) {
        self.key = key
        self.literal = literal
        let quoted: Bool
        if case .string(let string) = literal { quoted = text == "\"" + string + "\"" } else {
            quoted = false
        }
        keptText = quoted ? nil : text
    }
}

/// A device action the explorer draws as a fault, the lifting of one, or a heal step.
enum DeviceOperation: String, Hashable, Sendable {
    case offline
    case online
    case kill
    case launch = "launch &"
    case sync = "sync &"
    /// The heal phase's `sync`, which the script waits for.
    case syncAndWait = "sync"
    case stop
    case start = "start &"
    case accountUnavailable = "account-unavailable"
    case accountAvailable = "account-available"
    case signOut = "sign-out"

    var action: DeviceAction {
        switch self {
        case .offline: return .offline
        case .online: return .online
        case .kill: return .kill
        case .launch: return .launch
        case .sync, .syncAndWait: return .sync
        case .stop: return .stop
        case .start: return .start
        case .accountUnavailable: return .accountUnavailable
        case .accountAvailable: return .accountAvailable
        case .signOut: return .signOut
        }
    }

    /// Whether the statement ends in `&` (its raw value does): told by case, not by text.
    var runsInBackground: Bool {
        switch self {
        case .launch, .sync, .start: return true
        default: return false
        }
    }
}

/// One statement of a drawn run, as a value: it becomes a timeline statement to run, and the
/// line a shrunk scenario writes for it, from the same data.
enum ChaosAction: Hashable, Sendable {
    case insert(device: String, entity: String, label: String, values: [ChaosAssignment])
    case update(device: String, label: String, values: [ChaosAssignment])
    case delete(device: String, label: String)
    /// `DEVICE: batch-delete ENTITY [where KEY=VALUE …]`.
    case batchDelete(device: String, entity: String, filter: [ChaosAssignment])
    /// `DEVICE: share …`, `accept share …`, `unshare …`, `remove … from …` or `leave share …`
    /// (a sharing statement). Boxed: a rare step, and its payload would make every copy of
    /// an action dearer.
    indirect case sharing(device: String, ChaosSharingStep)
    case device(String, DeviceOperation)
    /// `DEVICE: sign-in ACCOUNT`: a switch into another account, or the end of a sign-out
    /// or of a switch.
    case signIn(device: String, account: String)
    case throttle(account: String, duration: TimeSpan)
    case throttleUpload(account: String, records: Int, retryAfter: TimeSpan)
    case outage(duration: TimeSpan)
    case expireTokens(account: String)
    case deleteZone(account: String)
    case userDeleteZone(account: String)
    case quota(account: String, full: Bool)
    case pushDrop(Probability)
    case latency(DurationSpecification)
    case reject(label: String)
    case accept(label: String)
    case wait(TimeSpan)
    case settle
    /// `when DEVICE reaches PROBE: ACTION`: the action waits for that point of the device's
    /// next synchronization (the `race` fault).
    indirect case trigger(device: String, probe: String, action: ChaosAction)

    /// The device that acts, for device actions.
    var device: String? {
        switch self {
        case .insert(let device, _, _, _), .update(let device, _, _), .delete(let device, _),
            .device(let device, _), .trigger(let device, _, _), .signIn(let device, _),
            .batchDelete(let device, _, _), .sharing(let device, _):
            return device
        default:
            return nil
        }
    }

    /// The label an insert binds.
    var boundLabel: String? {
        switch self {
        case .insert(_, _, let label, _): return label
        case .trigger(_, _, let action): return action.boundLabel
        default: return nil
        }
    }

    /// Labels the statement needs bound (and, for device actions, present on the device).
    var usedLabels: [String] {
        switch self {
        case .insert(_, _, _, let values):
            return values.compactMap(Self.label)
        case .update(_, let label, let values):
            return [label] + values.compactMap(Self.label)
        case .delete(_, let label), .reject(let label), .accept(let label):
            return [label]
        case .batchDelete(_, _, let filter):
            return filter.compactMap(Self.label)
        case .sharing(_, let step):
            return [step.label]
        case .trigger(_, _, let action):
            return action.usedLabels
        default:
            return []
        }
    }

    private static func label(_ assignment: ChaosAssignment) -> String? {
        if case .label(let label) = assignment.literal { return label }
        return nil
    }

    /// The line a scenario file writes for it.
    var text: String {
        func assignments(_ values: [ChaosAssignment]) -> String {
            values.map { " \($0.key)=\($0.text)" }.joined()
        }
        switch self {
        case .insert(let device, let entity, let label, let values):
            return "\(device): insert \(entity) \(label)" + assignments(values)
        case .update(let device, let label, let values):
            return "\(device): update \(label)" + assignments(values)
        case .delete(let device, let label):
            return "\(device): delete \(label)"
        case .batchDelete(let device, let entity, let filter):
            return "\(device): batch-delete \(entity)"
                + (filter.isEmpty ? "" : " where" + assignments(filter))
        case .sharing(let device, let step):
            return "\(device): \(step.text)"
        case .device(let device, let operation):
            return "\(device): \(operation.rawValue)"
        case .signIn(let device, let account):
            return "\(device): sign-in \(account)"
        case .throttle(let account, let duration):
            return "cloud: throttle \(account) for \(duration)"
        case .throttleUpload(let account, let records, let retryAfter):
            return "cloud: throttle \(account) next-upload \(records) records retry-after "
                + "\(retryAfter)"
        case .outage(let duration):
            return "cloud: outage for \(duration)"
        case .expireTokens(let account):
            return "cloud: expire-tokens \(account)"
        case .deleteZone(let account):
            return "cloud: delete-zone \(account)"
        case .userDeleteZone(let account):
            return "cloud: user-delete-zone \(account)"
        case .quota(let account, let full):
            return "cloud: quota \(account) \(full ? "full" : "ok")"
        case .pushDrop(let probability):
            return "cloud: push drop \(probability)"
        case .latency(let latency):
            return "cloud: latency \(latency)"
        case .reject(let label):
            return "cloud: reject \(label) with serverRejectedRequest"
        case .accept(let label):
            return "cloud: accept \(label)"
        case .wait(let span):
            return "wait \(span)"
        case .settle:
            return "settle"
        case .trigger(let device, let probe, let action):
            return "when \(device) reaches \(probe): \(action.text)"
        }
    }

    /// The timeline statement to run; `location` is where failures point.
    func statement(at location: SourceLocation) -> TimelineStatement {
        TimelineStatement(kind(at: location), location: location)
    }

    /// The statement of a device action (an insert … a sign-in), as `statement(at:)` holds
    /// it; nil for the other actions.
    func deviceStatement(at location: SourceLocation) -> DeviceActionStatement? {
        isDeviceAction ? statementOfDevice(at: location) : nil
    }

    /// Whether the action is a device action: one `deviceStatement(at:)` gives a statement of.
    var isDeviceAction: Bool {
        switch self {
        case .insert, .update, .delete, .batchDelete, .sharing, .device, .signIn: return true
        default: return false
        }
    }

    /// `deviceStatement(at:)` of a device action, not wrapped in an optional (the explorer's
    /// optional was destroyed through the statement type's metadata).
    func statementOfDevice(at location: SourceLocation) -> DeviceActionStatement {
        func located<T>(_ value: T) -> Located<T> { Located(value, at: location) }
        func assignments(_ values: [ChaosAssignment]) -> [Assignment] {
            values.map {
                Assignment(key: located($0.key),
                    value: Value($0.literal, keptText: $0.keptText, location: location))
            }
        }
        func device(_ name: String, _ action: DeviceAction, background: Bool = false)
            -> DeviceActionStatement
        {
            DeviceActionStatement(
                device: located(name), action: action, runsInBackground: background,
                location: location)
        }
        switch self {
        case .insert(let name, let entity, let label, let values):
            return device(name, .insert(
                entity: located(entity), label: located(label), values: assignments(values)))
        case .update(let name, let label, let values):
            return device(name, .update(label: located(label), values: assignments(values)))
        case .delete(let name, let label):
            return device(name, .delete(label: located(label)))
        case .batchDelete(let name, let entity, let filter):
            return device(name, .batchDelete(entity: located(entity), filter: assignments(filter)))
        case .sharing(let name, let step):
            return device(name, step.action(at: location))
        case .device(let name, let operation):
            return device(name, operation.action, background: operation.runsInBackground)
        case .signIn(let name, let account):
            return device(name, .signIn(account: located(account)))
        default:
            preconditionFailure("not a device action")
        }
    }

    fileprivate func kind(at location: SourceLocation) -> TimelineStatementKind {
        if let statement = deviceStatement(at: location) { return .deviceAction(statement) }
        func located<T>(_ value: T) -> Located<T> { Located(value, at: location) }
        func cloud(_ action: CloudAction) -> TimelineStatementKind {
            .cloudAction(CloudActionStatement(action, location: location))
        }
        switch self {
        case .insert, .update, .delete, .batchDelete, .sharing, .device, .signIn:
            preconditionFailure("a device action's statement is its device statement")
        case .throttle(let account, let duration):
            return cloud(.throttle(account: located(account), duration: located(duration)))
        case .throttleUpload(let account, let records, let retryAfter):
            return cloud(.throttleNextUpload(
                account: located(account), records: located(records),
                retryAfter: located(retryAfter)))
        case .outage(let duration):
            return cloud(.outage(duration: located(duration)))
        case .expireTokens(let account):
            return cloud(.expireTokens(account: located(account)))
        case .deleteZone(let account):
            return cloud(.deleteZone(account: located(account)))
        case .userDeleteZone(let account):
            return cloud(.userDeleteZone(account: located(account)))
        case .quota(let account, let full):
            return cloud(.quota(account: located(account), full: full))
        case .pushDrop(let probability):
            return cloud(.setting(.pushDrop(probability)))
        case .latency(let latency):
            return cloud(.setting(.latency(latency)))
        case .reject(let label):
            return cloud(.reject(label: located(label), error: located(.serverRejectedRequest)))
        case .accept(let label):
            return cloud(.accept(label: located(label)))
        case .wait(let span):
            return .wait(located(span))
        case .settle:
            return .settle
        case .trigger(let name, let probe, let action):
            return Self.trigger(device: name, probe: probe, action: action, at: location)
        }
    }

    /// `when DEVICE reaches PROBE: ACTION`, at its first occurrence.
    private static func trigger(
        device: String, probe: String, action: ChaosAction, at location: SourceLocation
    ) -> TimelineStatementKind {
        func located<T>(_ value: T) -> Located<T> { Located(value, at: location) }
        let inner: TriggerAction
        switch action.kind(at: location) {
        case .deviceAction(let statement): inner = .device(statement)
        case .cloudAction(let statement): inner = .cloud(statement)
        default: preconditionFailure("a trigger runs a device or cloud action")
        }
        return .trigger(Trigger(
            device: located(device), probe: located(probe), occurrence: located(1),
            action: inner, location: location))
    }
}

extension ChaosAction {
    /// The same action with labels renamed (labels missing from `names` stay).
    func renamingLabels(_ names: [String: String]) -> ChaosAction {
        func rename(_ label: String) -> String { names[label] ?? label }
        func rename(_ values: [ChaosAssignment]) -> [ChaosAssignment] {
            values.map { assignment in
                guard case .label(let label) = assignment.literal else { return assignment }
                let renamed = rename(label)
                return ChaosAssignment(
                    key: assignment.key, literal: .label(renamed), keptText: renamed)
            }
        }
        switch self {
        case .insert(let device, let entity, let label, let values):
            return .insert(
                device: device, entity: entity, label: rename(label), values: rename(values))
        case .update(let device, let label, let values):
            return .update(device: device, label: rename(label), values: rename(values))
        case .delete(let device, let label):
            return .delete(device: device, label: rename(label))
        case .batchDelete(let device, let entity, let filter):
            return .batchDelete(device: device, entity: entity, filter: rename(filter))
        case .sharing(let device, let step):
            return .sharing(device: device, step.renaming(to: rename(step.label)))
        case .reject(let label):
            return .reject(label: rename(label))
        case .accept(let label):
            return .accept(label: rename(label))
        case .trigger(let device, let probe, let action):
            return .trigger(device: device, probe: probe, action: action.renamingLabels(names))
        default:
            return self
        }
    }
}
