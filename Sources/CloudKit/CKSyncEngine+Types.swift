import CKSyncEngineSim
import CloudSim

extension CKSyncEngine {
    /// How the app builds its engine (Apple's `CKSyncEngine.Configuration`).
    public struct Configuration: @unchecked Sendable {
        // `@unchecked`: Apple's is Sendable too; the delegate is a Sendable object.
        public var database: CKDatabase
        public var stateSerialization: State.Serialization?
        public weak var delegate: (any CKSyncEngineDelegate)?
        /// Whether the engine schedules fetches and sends by itself (true by default); with
        /// false, only `fetchChanges()` and `sendChanges()` talk to the cloud.
        public var automaticallySync = true
        /// Apple's subscription ID for the database subscription (kept, not used here).
        public var subscriptionID: String?

        public init(
            database: CKDatabase, stateSerialization: State.Serialization?,
                delegate: any CKSyncEngineDelegate
        ) {
            self.database = database
            self.stateSerialization = stateSerialization
            self.delegate = delegate
        }
    }

    /// A record change waiting to be sent.
    public enum PendingRecordZoneChange: Hashable, Sendable {
        case saveRecord(CKRecord.ID)
        case deleteRecord(CKRecord.ID)

        public var recordID: CKRecord.ID {
            switch self {
            case .saveRecord(let id), .deleteRecord(let id): return id
            }
        }
    }

    /// A zone change waiting to be sent.
    public enum PendingDatabaseChange: Hashable, Sendable {
        case saveZone(CKRecordZone)
        case deleteZone(CKRecordZone.ID)

        public var zoneID: CKRecordZone.ID {
            switch self {
            case .saveZone(let zone): return zone.zoneID
            case .deleteZone(let id): return id
            }
        }
    }

    /// Why an operation runs.
    public enum SyncReason: Int, Hashable, Sendable {
        case scheduled = 0
        case manual = 1
    }

    /// Which zones a fetch covers.
    public struct FetchChangesOptions: Hashable, Sendable {
        public enum Scope: Hashable, Sendable {
            case all
            case zoneIDs([CKRecordZone.ID])
            case allExcluding([CKRecordZone.ID])

            public func contains(_ zoneID: CKRecordZone.ID) -> Bool {
                switch self {
                case .all: return true
                case .zoneIDs(let zones): return zones.contains(zoneID)
                case .allExcluding(let zones): return !zones.contains(zoneID)
                }
            }
        }

        public var scope: Scope
        public var prioritizedZoneIDs: [CKRecordZone.ID] = []
        /// Apple's group for the fetch's operations, a new one unless the app sets one; kept,
        /// changes nothing here, and not compared (two options differ by their scopes only).
        public var operationGroup = CKOperationGroup()

        public init(scope: Scope = .all) { self.scope = scope }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.scope == rhs.scope && lhs.prioritizedZoneIDs == rhs.prioritizedZoneIDs
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(scope)
            hasher.combine(prioritizedZoneIDs)
        }
    }

    /// Which changes a send covers.
    public struct SendChangesOptions: Hashable, Sendable {
        public enum Scope: Hashable, Sendable {
            case all
            case zoneIDs([CKRecordZone.ID])
            case allExcluding([CKRecordZone.ID])
            case recordIDs([CKRecord.ID])

            public func contains(_ zoneID: CKRecordZone.ID) -> Bool {
                switch self {
                case .all: return true
                case .zoneIDs(let zones): return zones.contains(zoneID)
                case .allExcluding(let zones): return !zones.contains(zoneID)
                case .recordIDs(let ids): return ids.contains { $0.zoneID == zoneID }
                }
            }

            public func contains(_ recordID: CKRecord.ID) -> Bool {
                if case .recordIDs(let ids) = self { return ids.contains(recordID) }
                return contains(recordID.zoneID)
            }

            public func contains(_ change: PendingRecordZoneChange)
                -> Bool { contains(change.recordID) }

            public func contains(_ change: PendingDatabaseChange)
                -> Bool { contains(change.zoneID) }
        }

        public var scope: Scope
        /// Apple's group for the send's operations, a new one unless the app sets one; kept,
        /// changes nothing here, and not compared (two options differ by their scopes only).
        public var operationGroup = CKOperationGroup()

        public init(scope: Scope = .all) { self.scope = scope }

        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.scope == rhs.scope }

        public func hash(into hasher: inout Hasher) { hasher.combine(scope) }
    }

    public struct FetchChangesContext: Hashable, Sendable {
        public let reason: SyncReason
        public let options: FetchChangesOptions
    }

    public struct SendChangesContext: Hashable, Sendable {
        public let reason: SyncReason
        public let options: SendChangesOptions
    }
}
