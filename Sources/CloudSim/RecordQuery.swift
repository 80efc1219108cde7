/// A `CKQuery` of the private database ([CKQuery], [CKQueryOperation]; docs/CLOUDSIM.md
/// *Queries*): the records of one type, in one zone or every zone of the database, that a
/// predicate of the modelled subset matches.
public struct RecordQuery: Hashable, Sendable {
    public var recordType: String
    /// The zone searched; nil searches every zone of the private database.
    public var zone: ZoneID?
    public var predicate: QueryPredicate
    /// The order of the matches, key by key; empty: zone order, then record-name order.
    public var sortedBy: [QuerySort]

    public init(
        recordType: String, zone: ZoneID? = nil, predicate: QueryPredicate = .all,
        sortedBy: [QuerySort] = []
    ) {
        self.recordType = recordType
        self.zone = zone
        self.predicate = predicate
        self.sortedBy = sortedBy
    }
}

/// The predicates the simulated server evaluates ([CKQuery]'s supported operators):
/// `TRUEPREDICATE`, `FALSEPREDICATE`, one key compared with a value, a string key's prefix, a
/// key in a list of values, a list key holding a value, the tokenized search of a record's
/// strings, their negations and their conjunctions. A key is a field, or the system fields
/// `creationDate`, `modificationDate` (dates) and `recordID` (a reference to the record).
/// Anything else is refused, never guessed.
public indirect enum QueryPredicate: Hashable, Sendable {
    /// `NSPredicate(value: true)`.
    case all
    /// `FALSEPREDICATE`: matches no record.
    case none
    /// `key OP value`.
    case compare(key: String, QueryComparison, CloudValue)
    /// `key BEGINSWITH 'prefix'` (also `ANY key BEGINSWITH`): a string field, or a list with a
    /// string, that starts with the prefix, case and diacritics counting.
    case beginsWith(key: String, String)
    /// `key IN { v1, v2, … }`: a field equal to one of the values.
    case `in`(key: String, [CloudValue])
    /// `key CONTAINS value`, `ANY key == value`, `value IN key`: a list field with an element
    /// equal to the value, as `==` judges.
    case contains(key: String, CloudValue)
    /// `self CONTAINS 'words'`, `allTokens TOKENMATCHES[cdl] 'words'`: a record whose string
    /// fields (and lists of strings) hold every word of the text, case and diacritics ignored.
    case tokens(String)
    /// `NOT p`.
    case not(QueryPredicate)
    /// `a AND b AND …`.
    case and([QueryPredicate])

    /// Whether a record matches; a missing key matches nothing (and its negation everything).
    public func matches(_ record: CloudRecord) -> Bool {
        switch self {
        case .all:
            return true
        case .none:
            return false
        case .compare(let key, let comparison, let value):
            guard let field = record.queryValue(key) else { return false }
            return comparison.holds(field, value)
        case .beginsWith(let key, let prefix):
            switch record.queryValue(key) {
            case .string(let text)?: return text.hasPrefix(prefix)
            case .list(let values)?:
                return values.contains { if case .string(let text) = $0 {
                    return text.hasPrefix(prefix) } else { return false } }
            default: return false
            }
        case .in(let key, let values):
            guard let field = record.queryValue(key) else { return false }
            return values.contains { QueryComparison.equal.holds(field, $0) }
        case .contains(let key, let value):
            guard case .list(let values)? = record.queryValue(key) else { return false }
            return values.contains { QueryComparison.equal.holds($0, value) }
        case .tokens(let text):
            return QueryTokens.record(record, holdsEveryWordOf: text)
        case .not(let inner):
            return !inner.matches(record)
        case .and(let parts):
            return parts.allSatisfy { $0.matches(record) }
        }
    }

    /// The first part the server cannot evaluate: an ordering of a value without an order
    /// (bytes, assets, lists, references) or a comparison with a list or asset.
    public var unsupportedPart: String? {
        switch self {
        case .all, .none, .beginsWith, .tokens:
            return nil
        case .contains(let key, let value):
            switch value {
            case .asset, .list: return "\(key) CONTAINS (an asset or a list)"
            default: return nil
            }
        case .not(let inner):
            return inner.unsupportedPart
        case .compare(let key, let comparison, let value):
            switch value {
            case .string, .int, .double, .date: return nil
            case .reference, .bytes:
                let isEquality = comparison == .equal || comparison == .notEqual
                return isEquality ? nil : "\(key) \(comparison.rawValue) (a value without order)"
            case .asset, .list:
                return "\(key) \(comparison.rawValue) (an asset or a list)"
            }
        case .in(let key, let values):
            let listed = values.contains {
                if case .asset = $0 { return true }
                if case .list = $0 { return true }
                return false
            }
            return listed ? "\(key) IN (an asset or a list)" : nil
        case .and(let parts):
            return parts.lazy.compactMap(\.unsupportedPart).first
        }
    }
}

extension CloudRecord {
    /// What a query's key reads: a field, or a system field (`creationDate`,
    /// `modificationDate`, `recordID`), which CloudKit reserves so no field shadows it.
    func queryValue(_ key: String) -> CloudValue? {
        switch key {
        case "creationDate":
            return creationTime.map {
                .date(millisecondsSince1970: SimulatedCalendar.milliseconds($0))
            }
        case "modificationDate":
            return modificationTime.map {
                .date(millisecondsSince1970: SimulatedCalendar.milliseconds($0))
            }
        case "recordID":
            return .reference(recordName)
        default:
            return fields[key]
        }
    }
}

/// The comparison operators of a `compare` predicate.
public enum QueryComparison: String, Hashable, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    /// Whether `field OP value` holds. Numbers compare as numbers (an integer with a double
    /// too), strings by their characters, dates by time; values of other kinds never order.
    func holds(_ field: CloudValue, _ value: CloudValue) -> Bool {
        switch self {
        case .equal: return Self.order(field, value) == 0 || Self.same(field, value)
        case .notEqual: return !(Self.order(field, value) == 0 || Self.same(field, value))
        case .less: return Self.order(field, value).map { $0 < 0 } ?? false
        case .lessOrEqual: return Self.order(field, value).map { $0 <= 0 } ?? false
        case .greater: return Self.order(field, value).map { $0 > 0 } ?? false
        case .greaterOrEqual: return Self.order(field, value).map { $0 >= 0 } ?? false
        }
    }

    /// Equal values; a reference equals one naming the same record, whatever its action
    /// (`CKRecord.Reference` compares by record ID).
    static func same(_ lhs: CloudValue, _ rhs: CloudValue) -> Bool {
        if case .reference(let a, _) = lhs, case .reference(let b, _) = rhs { return a == b }
        return lhs == rhs
    }

    /// -1, 0 or 1 for two values with an order between them; nil otherwise.
    static func order(_ lhs: CloudValue, _ rhs: CloudValue) -> Int? {
        func sign<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a == b ? 0 : 1) }
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return sign(a, b)
        case (.int(let a), .int(let b)): return sign(a, b)
        case (.double(let a), .double(let b)): return sign(a, b)
        case (.int(let a), .double(let b)): return sign(Double(a), b)
        case (.double(let a), .int(let b)): return sign(a, Double(b))
        case (.date(let a), .date(let b)): return sign(a, b)
        default: return nil
        }
    }
}

/// Where the next page of a query starts (`CKQueryOperation.Cursor`): the query and the
/// last record returned, by zone and name, and by its sort values for a sorted query.
public struct QueryCursor: Hashable, Sendable {
    public var query: RecordQuery
    public var lastZone: ZoneID
    public var lastRecordName: String
    /// The last record's values of the query's sort keys (nil: the record had none).
    public var lastValues: [CloudValue?] = []
}
