import CKSyncEngineSim
import CloudSim
import EngineKit
import LocalStore
import SyncContract

/// One durable outbox row (OBX-4): the model's record, its type, its collection and the
/// mutation. It carries no list of changed keys. A delete replaces a save.
public struct OutboxRow: Hashable, Sendable {
    public enum Mutation: String, Hashable, Sendable {
        case save
        case delete
    }
    public var recordName: String
    public var recordType: String
    /// `main`, or the record name of the collection's sharable root (OBX-2).
    public var collection: String
    public var mutation: Mutation
    /// Staged into CKSyncEngine by a reconcile (OBX-7).
    public var attempted = false
    /// `markRecordFailed`: the code of the last rejection (OBX-20); nil otherwise.
    public var rejection: String?
}

/// The account a record's latest edit was recorded under, and how many account switches the
/// CKSyncEngine had reported by then (OBX-DR-3).
public struct RecordedAccount: Hashable, Sendable {
    public var account: String?
    public var switches: Int
}

/// A zone the engine tracks, as its zone manifest persists it (OBX-29).
public struct TrackedZone: Hashable, Sendable {
    public enum Role: String, Hashable, Sendable {
        case owner
        case participant
    }
    public var zone: ZoneID
    public var collection: String
    public var role: Role
}

/// What `outbox` keeps on the device's disk: the outbox rows, the models' record names and
/// collections, the archived system fields of the last known server copies, the zone
/// manifest and both CKSyncEngine serializations (docs/OUTBOX.md, "What the engine keeps").
public struct OutboxSyncData: EngineSyncData, BoundSyncData {
    /// The outbox, by record name.
    public var rows: [String: OutboxRow] = [:]
    /// The order rows were first written in (decisions walk rows in this order).
    public var rowOrder: [String] = []
    /// Model → record name (the model's stable UUID, OBX-1), and back.
    public var bindings = RecordBindings()
    /// Record name → collection it was last saved in (a deletion names its zone from it).
    public var collections: [String: String] = [:]
    /// Record name → the archived system fields (the last known server copy, OBX-11).
    public var archives: [String: CloudRecord] = [:]
    /// The zone manifest (OBX-29): every tracked zone with its role.
    public var zones: [TrackedZone] = []
    /// Collections whose share was revoked: their copies are kept, never sent (OBX-31).
    public var revoked: [String] = []
    /// `prepareToAdoptShare` ran for these collections (OBX-30).
    public var prepared: [String] = []
    public var privateState: CKSyncEngine.State.Serialization?
    public var sharedState: CKSyncEngine.State.Serialization?
    /// `lastRejectionReason` (OBX-20), shown as `error(CODE)`.
    public var lastRejectionReason: String?
    /// The user record name the adapter last saw (tells a switch from a sign-in, OBX-26).
    public var lastUser: String?
    /// The account the owned zones are named by (OBX-3): the one signed in when the
    /// CKSyncEngine last reported a sign-in or a switch, or at the first zone ensured before.
    public var zoneOwner: String?
    /// Per record, the account its latest edit was recorded under (OBX-DR-3); on disk, so a
    /// relaunch still knows it.
    public var recordedUnder: [String: RecordedAccount] = [:]
    /// Account switches the CKSyncEngine reported (OBX-26 resets on each).
    public var reportedSwitches = 0
    /// `resetPersistedState()` was called: it takes effect at the next launch (OBX-37).
    public var resetAtNextLaunch = false
    /// A fetched page is applied and its `stateUpdate` is not persisted yet: a launch that
    /// finds it set was killed in between, and the page is fetched again (OBX-33).
    public var pageAwaitingState = false

    public init() {}

    mutating func setRow(_ row: OutboxRow) {
        if rows[row.recordName] == nil { rowOrder.append(row.recordName) }
        rows[row.recordName] = row
    }

    mutating func removeRow(_ name: String) {
        guard rows.removeValue(forKey: name) != nil else { return }
        rowOrder.removeAll { $0 == name }
    }

    /// The rows in the order they were written.
    var orderedRows: [OutboxRow] { rowOrder.compactMap { rows[$0] } }

    func tracked(_ collection: String) -> TrackedZone? {
        zones.first { $0.collection == collection }
    }

    func tracked(zone: ZoneID) -> TrackedZone? {
        zones.first { $0.zone == zone }
    }
}
