import CloudSim
import Foundation

/// Where a query's or a query subscription's `NSPredicate` is evaluated: by the server, as
/// CloudKit does, when it is `NSPredicate(value:)`, a format predicate of the supported subset
/// or an `AND` or `NOT` compound of such; on the device for block predicates (a query only: a
/// subscription must leave the device); nowhere for a format predicate outside the subset or
/// an `OR` compound (which CloudKit has not) with one inside.
enum PredicateEvaluation: Equatable {
    case server(QueryPredicate)
    case device
    /// The message of the `invalidArguments` error.
    case refused(String)

    init(_ predicate: NSPredicate) {
        if let format = NSPredicate.formatPredicates.value(for: predicate) {
            switch format.parsed {
            case .success(let parsed): self = .server(parsed)
            case .failure(let error): self = .refused(error.message(format: format.format))
            }
        } else if let compound = predicate as? NSCompoundPredicate {
            self = Self.compound(compound)
        } else if predicate.isEqual(NSPredicate(value: true)) {
            self = .server(.all)
        } else if predicate.isEqual(NSPredicate(value: false)) {
            self = .server(.none)
        } else {
            self = .device
        }
    }

    private static func compound(_ compound: NSCompoundPredicate) -> PredicateEvaluation {
        let parts = compound.subpredicates.map(Self.init)
        if let refusal = parts.lazy.compactMap(\.refusal).first { return .refused(refusal) }
        guard compound.compoundPredicateType != .or else {
            // A compound of block and value predicates stays on the device, as it always could.
            return hasFormat(compound) ? .refused("Unsupported predicate: OR compound "
                + "(NSCompoundPredicate) is not supported in CloudKit queries") : .device
        }
        var server: [QueryPredicate] = []
        for part in parts {
            guard case .server(let predicate) = part else { return .device }
            server.append(predicate)
        }
        guard compound.compoundPredicateType == .not else { return .server(.and(server)) }
        return server.count == 1 ? .server(.not(server[0])) : .server(.not(.and(server)))
    }

    /// Whether a format predicate is in a compound, at any depth.
    private static func hasFormat(_ predicate: NSPredicate) -> Bool {
        if NSPredicate.formatPredicates.value(for: predicate) != nil { return true }
        return (predicate as? NSCompoundPredicate)?.subpredicates.contains(where: hasFormat)
            ?? false
    }

    private var refusal: String? {
        if case .refused(let message) = self { return message }
        return nil
    }
}
