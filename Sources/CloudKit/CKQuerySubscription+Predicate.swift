import CloudSim
import Foundation

/// A query subscription's predicate travels to the server, which evaluates it on each
/// changed record, so it must be one the server evaluates: `NSPredicate(value: true)`
/// (`TRUEPREDICATE`) and `AND` compounds of such predicates (swift-corelibs-foundation has no
/// comparison predicates to build others from). A block predicate cannot leave the device, and
/// `FALSEPREDICATE`, `OR` and `NOT` are not evaluated by the server: saving one fails with
/// `invalidArguments`, as the server refuses what it cannot evaluate (docs/CLOUDSIM.md).
extension CKQuerySubscription {
    /// The server's form of an app's predicate; nil when the server cannot evaluate it.
    static func simulated(_ predicate: NSPredicate) -> QueryPredicate? {
        if let compound = predicate as? NSCompoundPredicate {
            guard compound.compoundPredicateType == .and else { return nil }
            var parts: [QueryPredicate] = []
            for part in compound.subpredicates { // tidy: ordered (an array)
                guard let simulated = simulated(part) else { return nil }
                parts.append(simulated)
            }
            return .and(parts)
        }
        return predicate.isEqual(NSPredicate(value: true)) ? .all : nil
    }

    /// The app's predicate for the server's: `TRUEPREDICATE` and `AND` compounds as such; a
    /// comparison (saved by code of the cloud's own, not through this facade) as a block that
    /// evaluates it on a record.
    static func predicate(for simulated: QueryPredicate, account: String?) -> NSPredicate {
        switch simulated {
        case .all:
            return NSPredicate(value: true)
        case .and(let parts):
            return NSCompoundPredicate(andPredicateWithSubpredicates: parts.map {
                predicate(for: $0, account: account)
            })
        case .compare:
            return NSPredicate { object, _ in
                guard let record = object as? CKRecord else { return false }
                return simulated.matches(record.simulated(account: account ?? ""))
            }
        }
    }
}
