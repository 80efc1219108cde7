import CloudSim
import Foundation

/// Apple's `NSSortDescriptor(key:ascending:)` and `key`, which swift-corelibs-foundation marks
/// unavailable (it has no key-value coding): these shadow them for `CKQuery.sortDescriptors`.
/// The descriptor compares two `CKRecord`s by the field (as the server orders them,
/// `QuerySort.order`); its key and direction stay reachable (`querySorts`) so that a query
/// sends them to the server.
extension NSSortDescriptor {
    public convenience init(key: String?, ascending: Bool) {
        let sort = key.map { QuerySort(key: $0, ascending: ascending) }
        self.init(keyPath: \CKRecord.self, ascending: ascending) { lhs, rhs in
            guard let sort, let lhs = lhs as? CKRecord, let rhs = rhs as? CKRecord else {
                return .orderedSame
            }
            let order = QuerySort.order(
                sort.value(of: lhs.simulated(account: "")),
                sort.value(of: rhs.simulated(account: "")))
            return order < 0 ? .orderedAscending : order == 0 ? .orderedSame : .orderedDescending
        }
        if let sort { Self.querySorts.register(self, sort) }
    }

    /// The key of a descriptor made with `init(key:ascending:)`; nil for any other.
    public var key: String? {
        Self.querySorts.value(for: self)?.key
    }

    /// The key and direction of each descriptor made with `init(key:ascending:)`.
    static let querySorts = InstanceRegistry<NSSortDescriptor, QuerySort>()
}
