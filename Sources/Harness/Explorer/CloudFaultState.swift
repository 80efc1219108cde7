import Kernel
import Scenario

/// The cloud faults in force, as the statements of a run left them, so the heal phase can
/// lift each one: full quotas, rejected records, a changed push drop or latency, and the
/// end of the last throttle or outage window.
struct CloudFaultState {
    private(set) var fullQuotas: [String] = []
    private(set) var rejectedLabels: [String] = []
    private(set) var pushDropChanged = false
    private(set) var latencyChanged = false
    /// When the last throttle or outage window ends.
    private(set) var quietAt = SimTime.zero

    let setupLatency: DurationSpecification
    let setupPushDrop: Probability

    init(setupLatency: DurationSpecification, setupPushDrop: Probability) {
        self.setupLatency = setupLatency
        self.setupPushDrop = setupPushDrop
    }

    /// Follows one statement of the run (ordinary, drawn or a trigger's).
    mutating func note(_ kind: TimelineStatementKind, now: SimTime) {
        switch kind {
        case .cloudAction(let statement):
            note(statement.action, now: now)
        case .trigger(let trigger):
            // A trigger may fire later; the heal phase lifts what it might have caused.
            if case .cloud(let statement) = trigger.action { note(statement.action, now: now) }
        default:
            break
        }
    }

    private mutating func note(_ action: CloudAction, now: SimTime) {
        switch action {
        case .throttle(_, let duration):
            quietAt = max(quietAt, now.adding(SimTime(microseconds: duration.value.microseconds)))
        case .outage(let duration):
            quietAt = max(quietAt, now.adding(SimTime(microseconds: duration.value.microseconds)))
        case .quota(let account, let full):
            fullQuotas.removeAll { $0 == account.value }
            if full { fullQuotas.append(account.value) }
        case .reject(let label, _):
            if !rejectedLabels.contains(label.value) { rejectedLabels.append(label.value) }
        case .accept(let label):
            rejectedLabels.removeAll { $0 == label.value }
        case .setting(.pushDrop(let probability)):
            pushDropChanged = probability != setupPushDrop
        case .setting(.latency(let latency)):
            latencyChanged = latency != setupLatency
        default:
            break
        }
    }

    /// The actions that lift every cloud fault, in a fixed order.
    var liftingActions: [ChaosAction] {
        var actions: [ChaosAction] = fullQuotas.map { .quota(account: $0, full: false) }
        actions += rejectedLabels.map { .accept(label: $0) }
        if pushDropChanged { actions.append(.pushDrop(setupPushDrop)) }
        if latencyChanged { actions.append(.latency(setupLatency)) }
        return actions
    }
}
