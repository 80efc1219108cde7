import CloudSim
import Foundation

/// The arguments of a predicate format string, taken in order by its specifiers: `%K` a key
/// (a string), `%@` an object, `%d` … an integer, `%f` / `%lf` a floating-point number. An
/// object is a value a record stores (`RecordValues`), or a `CKRecord` or `CKRecord.ID`, which
/// compare as a reference to that record, as Apple's do.
struct PredicateArguments {
    private let values: [Any]
    private var used = 0

    init(_ values: [Any]) {
        self.values = values
    }

    /// The next argument, or a malformed-string error naming the specifier that lacks it.
    private mutating func next(_ specifier: String, at position: Int) throws(PredicateFormatError)
        -> Any {
        guard used < values.count else {
            throw .malformed("too few arguments: %\(specifier) has none", at: position)
        }
        used += 1
        return values[used - 1]
    }

    /// A `%K` argument: a key.
    mutating func key(at position: Int) throws(PredicateFormatError) -> String {
        let argument = try next("K", at: position)
        guard let key = argument as? String ?? (argument as? NSString).map(String.init) else {
            throw .malformed("%K needs a string, found \(type(of: argument))", at: position)
        }
        return key
    }

    /// The value of a `%@`, `%d` … or `%f` argument.
    mutating func value(
        _ specifier: String, at position: Int
    ) throws(PredicateFormatError) -> CloudValue {
        guard specifier != "K" else {
            throw .malformed("%K names a key, not a value", at: position)
        }
        let argument = try next(specifier, at: position)
        guard let value = Self.value(of: argument) else {
            throw .unsupported("a value of type \(type(of: argument))", at: position)
        }
        switch (specifier, value) {
        case ("@", _), ("f", .double), ("lf", .double):
            return value
        case ("f", .int(let integer)), ("lf", .int(let integer)):
            return .double(Double(integer))
        case (_, .int) where specifier != "f" && specifier != "lf":
            return value
        default:
            throw .malformed("%\(specifier) needs a number, found \(type(of: argument))",
                at: position)
        }
    }

    /// The values of a `%@` argument that is an array (`IN %@`, `BETWEEN %@`).
    mutating func list(at position: Int) throws(PredicateFormatError) -> [CloudValue] {
        let argument = try next("@", at: position)
        guard let elements = argument as? [Any] ?? (argument as? NSArray).map(Array.init) else {
            throw .malformed("%@ needs an array here, found \(type(of: argument))", at: position)
        }
        var values: [CloudValue] = []
        for element in elements {
            guard let value = Self.value(of: element) else {
                throw .unsupported("a value of type \(type(of: element))", at: position)
            }
            values.append(value)
        }
        return values
    }

    /// What the cloud compares for an argument; nil for a type a record cannot hold.
    static func value(of argument: Any) -> CloudValue? {
        switch argument {
        case let record as CKRecord: return .reference(record.recordID.recordName)
        case let id as CKRecord.ID: return .reference(id.recordName)
        case let value as any CKRecordValueProtocol: return RecordValues.cloudValue(value)
        default: return nil
        }
    }
}
