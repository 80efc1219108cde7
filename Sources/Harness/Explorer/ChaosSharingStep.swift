import Scenario

/// A sharing step of a drawn run (the mix's `share` and `unshare`), as a value: its line
/// and its statement come from the same data, as for every `ChaosAction`.
enum ChaosSharingStep: Hashable, Sendable {
    case share(label: String, account: String, permission: SharePermission)
    case accept(label: String)
    case unshare(label: String)
    case remove(account: String, label: String)
    case leave(label: String)

    /// The root the step is about.
    var label: String {
        switch self {
        case .share(let label, _, _), .accept(let label), .unshare(let label),
            .remove(_, let label), .leave(let label):
            return label
        }
    }

    /// The action as a scenario file writes it, after `DEVICE: `.
    var text: String {
        switch self {
        case .share(let label, let account, let permission):
            return "share \(label) with \(account) \(permission.rawValue)"
        case .accept(let label): return "accept share \(label)"
        case .unshare(let label): return "unshare \(label)"
        case .remove(let account, let label): return "remove \(account) from \(label)"
        case .leave(let label): return "leave share \(label)"
        }
    }

    /// The same step about another root.
    func renaming(to label: String) -> ChaosSharingStep {
        switch self {
        case .share(_, let account, let permission):
            return .share(label: label, account: account, permission: permission)
        case .accept: return .accept(label: label)
        case .unshare: return .unshare(label: label)
        case .remove(let account, _): return .remove(account: account, label: label)
        case .leave: return .leave(label: label)
        }
    }

    /// The device action to run; `location` is where failures point.
    func action(at location: SourceLocation) -> DeviceAction {
        func located<T>(_ value: T) -> Located<T> { Located(value, at: location) }
        switch self {
        case .share(let label, let account, let permission):
            return .share(label: located(label), account: located(account), permission: permission)
        case .accept(let label): return .acceptShare(label: located(label))
        case .unshare(let label): return .unshare(label: located(label))
        case .remove(let account, let label):
            return .removeParticipant(account: located(account), label: located(label))
        case .leave(let label): return .leaveShare(label: located(label))
        }
    }
}
