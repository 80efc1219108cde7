/// Why a predicate format string gives no predicate the simulated cloud evaluates: a part
/// CloudKit queries do not support (or SyncLab does not model), or a malformed string. Apple
/// raises an exception when such a predicate reaches `CKQuery`; SyncLab keeps the predicate and
/// fails each query or subscription save that uses it with `invalidArguments` and this message.
struct PredicateFormatError: Error, Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case unsupported
        case malformed
    }

    let kind: Kind
    /// What is wrong, naming the part ("OR", "unbalanced quote").
    let what: String
    /// Where, in characters from 1; the string's length + 1 for its end.
    let position: Int

    static func unsupported(_ what: String, at position: Int) -> Self {
        Self(kind: .unsupported, what: what, position: position)
    }

    static func malformed(_ what: String, at position: Int) -> Self {
        Self(kind: .malformed, what: what, position: position)
    }

    /// The error's message, quoting the format string.
    func message(format: String) -> String {
        switch kind {
        case .unsupported:
            return "Unsupported predicate \"\(format)\": \(what) at character \(position) is "
                + "not supported in CloudKit queries"
        case .malformed:
            return "Malformed predicate \"\(format)\": \(what) at character \(position)"
        }
    }
}
