/// A subscription of an account's database, of any of CloudKit's three kinds
/// ([CKSubscription]): what a fetch of every subscription answers, sorted by ID.
public enum Subscription: Hashable, Sendable {
    /// A `CKQuerySubscription` (private database only).
    case query(QuerySubscription)
    /// A `CKRecordZoneSubscription` (private database only).
    case zone(ZoneSubscription)
    /// A named `CKDatabaseSubscription` (private or shared database).
    case database(DatabaseSubscription)

    /// The subscription's ID, unique in its database.
    public var id: String {
        switch self {
        case .query(let subscription): return subscription.id
        case .zone(let subscription): return subscription.id
        case .database(let subscription): return subscription.id
        }
    }
}
