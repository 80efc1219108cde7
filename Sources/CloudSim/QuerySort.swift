import Kernel

/// One key of a query's order (`CKQuery.sortDescriptors`, each an
/// `NSSortDescriptor(key:ascending:)`): a field, or the system fields `creationDate` and
/// `modificationDate`, which read the record's times.
public struct QuerySort: Hashable, Sendable {
    public var key: String
    public var ascending: Bool

    public init(key: String, ascending: Bool) {
        self.key = key
        self.ascending = ascending
    }

    /// The system fields a sort may name, as CloudKit spells them.
    public static let creationDate = "creationDate"
    public static let modificationDate = "modificationDate"

    /// The value the record sorts by; nil when it has none.
    public func value(of record: CloudRecord) -> CloudValue? {
        switch key {
        case Self.creationDate: return record.creationTime.map { .int($0.microseconds) }
        case Self.modificationDate: return record.modificationTime.map { .int($0.microseconds) }
        default: return record.fields[key]
        }
    }

    /// -1, 0 or 1: a total order of values for sorting. A missing value comes first; numbers
    /// compare as numbers, strings by character, dates by time; values of different kinds
    /// order by kind (numbers, strings, dates, bytes, references, assets, lists); bytes by
    /// their bytes, references by record name; assets and lists tie.
    public static func order(_ lhs: CloudValue?, _ rhs: CloudValue?) -> Int {
        guard let lhs else { return rhs == nil ? 0 : -1 }
        guard let rhs else { return 1 }
        if let order = QueryComparison.order(lhs, rhs) { return order }
        let (left, right) = (rank(lhs), rank(rhs))
        if left != right { return left < right ? -1 : 1 }
        switch (lhs, rhs) {
        case (.bytes(let a), .bytes(let b)):
            return a == b ? 0 : (a.lexicographicallyPrecedes(b) ? -1 : 1)
        case (.reference(let a, _), .reference(let b, _)):
            return a == b ? 0 : (a < b ? -1 : 1)
        default:
            return 0
        }
    }

    private static func rank(_ value: CloudValue) -> Int {
        switch value {
        case .int, .double: return 0
        case .string: return 1
        case .date: return 2
        case .bytes: return 3
        case .reference: return 4
        case .asset: return 5
        case .list: return 6
        }
    }
}

/// Where a record stands in a sorted query: its sort values, then its zone and record name,
/// which break ties so that the order is total and a cursor can resume after any record.
struct QueryPosition: Hashable, Sendable {
    var values: [CloudValue?]
    var zone: ZoneID
    var recordName: String

    init(_ record: CloudRecord, sorts: [QuerySort]) {
        values = sorts.map { $0.value(of: record) }
        zone = record.zone
        recordName = record.recordName
    }

    init(_ cursor: QueryCursor) {
        values = cursor.lastValues
        zone = cursor.lastZone
        recordName = cursor.lastRecordName
    }

    /// Whether `self` comes before `other` under the sorts.
    func precedes(_ other: QueryPosition, sorts: [QuerySort]) -> Bool {
        for (index, sort) in sorts.enumerated() {
            let lhs = index < values.count ? values[index] : nil
            let rhs = index < other.values.count ? other.values[index] : nil
            let order = QuerySort.order(lhs, rhs)
            if order != 0 { return sort.ascending ? order < 0 : order > 0 }
        }
        if zone != other.zone { return zone < other.zone }
        return recordName < other.recordName
    }
}
