import CloudSim
import Foundation

/// Apple's `NSPredicate(format:)`, which swift-corelibs-foundation marks unavailable: these
/// shadow it for the subset CloudKit queries accept (`PredicateFormatParser`). The predicate
/// is a block predicate that evaluates its parsed form on a `CKRecord`; the parsed form stays
/// reachable (`formatPredicates`) so that a query or a query subscription sends it to the
/// server. A string outside the subset still gives a predicate (Apple raises an exception
/// when it reaches `CKQuery`): each query or subscription save with it fails with
/// `invalidArguments` naming the part, and `evaluate(with:)` answers false.
extension NSPredicate {
    public convenience init(format predicateFormat: String, _ args: CVarArg...) {
        self.init(parsed: FormatPredicate(predicateFormat, arguments: args.map { $0 as Any }))
    }

    public convenience init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        self.init(parsed: FormatPredicate(predicateFormat, arguments: arguments ?? []))
    }

    /// A predicate the server holds (a query subscription fetched back): evaluated, and sent
    /// again, as the format predicate that made it.
    convenience init(server predicate: QueryPredicate) {
        self.init(parsed: FormatPredicate(server: predicate))
    }

    private convenience init(parsed: FormatPredicate) {
        self.init { object, _ in parsed.evaluate(with: object) }
        Self.formatPredicates.register(self, parsed)
    }

    /// The parsed form of each predicate made from a format string.
    static let formatPredicates = InstanceRegistry<NSPredicate, FormatPredicate>()
}

/// A format string and what it parsed to: the server's predicate, or why there is none.
struct FormatPredicate: Sendable {
    let format: String
    let parsed: Result<QueryPredicate, PredicateFormatError>

    init(_ format: String, arguments: [Any]) {
        self.format = format
        parsed = PredicateFormatParser.parse(format, arguments: arguments)
    }

    init(server predicate: QueryPredicate) {
        format = "(a predicate of the server)"
        parsed = .success(predicate)
    }

    /// The message of the `invalidArguments` error a query with it fails with; nil when parsed.
    var refusal: String? {
        guard case .failure(let error) = parsed else { return nil }
        return error.message(format: format)
    }

    /// Whether a record matches, as the server would judge it; any other object has no keys,
    /// so only `TRUEPREDICATE` matches it. A string that did not parse matches nothing.
    func evaluate(with object: Any?) -> Bool {
        guard case .success(let predicate) = parsed else { return false }
        guard let record = object as? CKRecord else { return predicate == .all }
        // The owner does not matter: a predicate reads fields only.
        return predicate.matches(record.simulated(account: ""))
    }
}
