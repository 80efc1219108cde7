import CloudSim
import LocalStore

/// The state of a pull phase (HIS-22): the scope, its changed zones and the page in hand.
final class HistoryPullState {
    /// HIS-22: private, then shared.
    static let scopes: [DatabaseScope] = [.privateDatabase, .sharedDatabase]

    var scopeIndex = 0
    var changedZones: [ZoneID] = []
    var deletedZones: [ZoneDeletion] = []
    var zoneIndex = 0
    var databaseToken: DatabaseChangeToken?
    /// The database token of the scope's last answer, saved after its zones (HIS-22 step 4).
    var pendingDatabaseToken: DatabaseChangeToken?
    /// A page fetched and not stored yet.
    var page: (records: [CloudRecord], deletions: [RecordDeletion], token: ZoneChangeToken,
        moreComing: Bool)?
    /// HIS-24: one retry after `changeTokenExpired` per scope.
    var tokenRetries = 0
    var failed = false

    var scope: DatabaseScope { Self.scopes[scopeIndex] }
}
