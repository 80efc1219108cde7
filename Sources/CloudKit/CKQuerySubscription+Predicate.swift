import CloudSim
import Foundation

/// A query subscription's predicate travels to the server, which evaluates it on each
/// changed record, so it must be one the server evaluates (NSPredicate+Server.swift):
/// `NSPredicate(value:)`, `NSPredicate(format:)` of the subset CloudKit queries accept, and
/// `AND` and `NOT` compounds of them. A block predicate cannot leave the device, and `OR` is
/// not evaluated by the server: saving one fails with `invalidArguments`, as the server
/// refuses what it cannot evaluate (docs/CLOUDSIM.md).
extension CKQuerySubscription {
    /// The server's form of an app's predicate; nil when the server cannot evaluate it.
    static func simulated(_ predicate: NSPredicate) -> QueryPredicate? {
        guard case .server(let simulated) = PredicateEvaluation(predicate) else { return nil }
        return simulated
    }

    /// Why the save of a subscription with this predicate fails; nil when it can be sent.
    static func refusal(_ predicate: NSPredicate) -> String? {
        switch PredicateEvaluation(predicate) {
        case .server: return nil
        case .device: return "a block predicate cannot be evaluated by the server"
        case .refused(let message): return message
        }
    }

    /// The app's predicate for the server's (a subscription fetched back): `TRUEPREDICATE`,
    /// `FALSEPREDICATE` and `AND` compounds as such; a comparison, prefix or list as a format
    /// predicate would parse to, so that saving the subscription again sends it as it was.
    static func predicate(for simulated: QueryPredicate) -> NSPredicate {
        switch simulated {
        case .all:
            return NSPredicate(value: true)
        case .none:
            return NSPredicate(value: false)
        case .and(let parts):
            return NSCompoundPredicate(andPredicateWithSubpredicates: parts.map {
                predicate(for: $0)
            })
        case .not(let inner):
            return NSCompoundPredicate(notPredicateWithSubpredicate: predicate(for: inner))
        case .compare, .beginsWith, .in, .contains, .tokens:
            return NSPredicate(server: simulated)
        }
    }
}
