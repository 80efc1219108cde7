import CloudSim
import Kernel

/// `CKRecord.ID`: a record name in a zone.
public struct RecordID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var recordName: String
    public var zoneID: ZoneID

    public init(recordName: String, zoneID: ZoneID) {
        self.recordName = recordName
        self.zoneID = zoneID
    }

    public static func < (lhs: RecordID, rhs: RecordID) -> Bool {
        (lhs.zoneID, lhs.recordName) < (rhs.zoneID, rhs.recordName)
    }

    public var description: String { "\(recordName)@\(zoneID)" }
}

extension CKSyncEngine {
    /// `CKSyncEngine.PendingDatabaseChange`.
    public enum PendingDatabaseChange: Hashable, Sendable {
        case saveZone(ZoneID)
        case deleteZone(ZoneID)

        public var zoneID: ZoneID {
            switch self {
            case .saveZone(let zone), .deleteZone(let zone): return zone
            }
        }
    }

    /// `CKSyncEngine.PendingRecordZoneChange`.
    public enum PendingRecordZoneChange: Hashable, Sendable {
        case saveRecord(RecordID)
        case deleteRecord(RecordID)

        public var recordID: RecordID {
            switch self {
            case .saveRecord(let id), .deleteRecord(let id): return id
            }
        }
    }

    /// `CKSyncEngine.SyncReason`.
    public enum SyncReason: Int, Hashable, Sendable {
        case scheduled = 0
        case manual = 1
    }

    /// `CKSyncEngine.FetchChangesOptions`: which zones a fetch covers.
    public struct FetchChangesOptions: Hashable, Sendable {
        public enum Scope: Hashable, Sendable {
            case all
            case zoneIDs([ZoneID])
            case allExcluding([ZoneID])
        }
        public var scope: Scope

        public init(scope: Scope = .all) { self.scope = scope }

        public func contains(_ zone: ZoneID) -> Bool {
            switch scope {
            case .all: return true
            case .zoneIDs(let zones): return zones.contains(zone)
            case .allExcluding(let zones): return !zones.contains(zone)
            }
        }
    }

    /// `CKSyncEngine.SendChangesOptions`: which changes a send covers.
    public struct SendChangesOptions: Hashable, Sendable {
        public enum Scope: Hashable, Sendable {
            case all
            case zoneIDs([ZoneID])
            case allExcluding([ZoneID])
            case recordIDs([RecordID])
        }
        public var scope: Scope

        public init(scope: Scope = .all) { self.scope = scope }

        public func contains(_ record: RecordID) -> Bool {
            switch scope {
            case .recordIDs(let ids): return ids.contains(record)
            default: return contains(record.zoneID)
            }
        }

        public func contains(_ zone: ZoneID) -> Bool {
            switch scope {
            case .all: return true
            case .zoneIDs(let zones): return zones.contains(zone)
            case .allExcluding(let zones): return !zones.contains(zone)
            case .recordIDs(let ids): return ids.contains { $0.zoneID == zone }
            }
        }
    }

    /// `CKSyncEngine.FetchChangesContext`.
    public struct FetchChangesContext: Hashable, Sendable {
        public var reason: SyncReason
        public var options: FetchChangesOptions
    }

    /// `CKSyncEngine.SendChangesContext`.
    public struct SendChangesContext: Hashable, Sendable {
        public var reason: SyncReason
        public var options: SendChangesOptions
    }

    /// `CKSyncEngine.RecordZoneChangeBatch`: the records of one send request (it may span
    /// zones; in the private database the simulated engine sends it as one `modifyRecords`,
    /// plus one per further zone that holds deletes; see `CKSyncEngine.requestParts`).
    public struct RecordZoneChangeBatch: Hashable, Sendable {
        /// The most items (saves and deletes) `init(pendingChanges:recordProvider:)` puts in a
        /// batch: CloudKit's limit per request (docs/CLOUDSIM.md, `modifyRecords`).
        public static let maximumItemCount = 400
        /// The most bytes of saved records (`CloudRecord.recordSizeBytes`, assets excluded)
        /// `init(pendingChanges:recordProvider:)` puts in a batch: CloudKit's request size
        /// limit (2 MB, docs/CLOUDSIM.md *Request size*). A record larger by itself still goes
        /// out, alone, and fails there.
        public static let maximumByteCount = 2_097_152

        /// Records to save, each a `CKRecord` with the keys changed since it was last fetched.
        public var recordsToSave: [RecordSave]
        public var recordIDsToDelete: [RecordID]
        public var atomicByZone: Bool

        /// `init(recordsToSave:recordIDsToDelete:atomicByZone:)`: a batch made by hand; it may
        /// exceed the limit and then fail `limitExceeded`, as on Apple platforms.
        public init(
            recordsToSave: [RecordSave], recordIDsToDelete: [RecordID], atomicByZone: Bool = false
        ) {
            self.recordsToSave = recordsToSave
            self.recordIDsToDelete = recordIDsToDelete
            self.atomicByZone = atomicByZone
        }

        /// `init?(pendingChanges:recordProvider:)`: walks `pendingChanges` in order until the
        /// batch holds `maximumItemCount` items or the next record would take its saves past
        /// `maximumByteCount` (Apple: "until there are no more changes or the size of the batch
        /// reaches the maximum limit"; the first item always goes in); for a save it asks
        /// `recordProvider` for the record and skips the change when it answers nil. Nil when
        /// nothing was added.
        public init?(
            pendingChanges: [PendingRecordZoneChange],
            recordProvider: (RecordID) -> RecordSave?
        ) {
            var saves: [RecordSave] = []
            var deletes: [RecordID] = []
            var bytes = 0
            walk: for change in pendingChanges {
                if saves.count + deletes.count >= Self.maximumItemCount { break }
                switch change {
                case .saveRecord(let id):
                    guard let record = recordProvider(id) else { continue }
                    let size = record.record.recordSizeBytes
                    if !(saves.isEmpty && deletes.isEmpty),
                       bytes + size > Self.maximumByteCount { break walk }
                    bytes += size
                    saves.append(record)
                case .deleteRecord(let id):
                    deletes.append(id)
                }
            }
            if saves.isEmpty && deletes.isEmpty { return nil }
            self.init(recordsToSave: saves, recordIDsToDelete: deletes, atomicByZone: false)
        }

        var itemCount: Int { recordsToSave.count + recordIDsToDelete.count }
    }
}

/// `CKSyncEngineDelegate`. Both methods are called synchronously, one at a time, from inside a
/// call into the engine (an entry point); calling `fetchChanges`/`sendChanges` or another
/// entry point from inside them is a runtime error, as on Apple platforms.
public protocol CKSyncEngineDelegate: AnyObject {
    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine)
    func nextRecordZoneChangeBatch(
        _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
    ) -> CKSyncEngine.RecordZoneChangeBatch?
}
