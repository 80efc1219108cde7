import CloudSim
import Kernel

extension CKSyncEngine {
    /// `CKSyncEngine.Event`, with the payloads of Apple's event structs.
    public enum Event: Hashable, Sendable {
        case stateUpdate(StateUpdate)
        case accountChange(AccountChange)
        case fetchedDatabaseChanges(FetchedDatabaseChanges)
        case fetchedRecordZoneChanges(FetchedRecordZoneChanges)
        case sentDatabaseChanges(SentDatabaseChanges)
        case sentRecordZoneChanges(SentRecordZoneChanges)
        case willFetchChanges(FetchChangesContext)
        case willFetchRecordZoneChanges(zoneID: ZoneID)
        case didFetchRecordZoneChanges(zoneID: ZoneID, error: CloudError?)
        case didFetchChanges(FetchChangesContext)
        case willSendChanges(SendChangesContext)
        case didSendChanges(SendChangesContext)

        /// The case name, as traces spell it.
        public var name: String {
            switch self {
            case .stateUpdate: return "stateUpdate"
            case .accountChange: return "accountChange"
            case .fetchedDatabaseChanges: return "fetchedDatabaseChanges"
            case .fetchedRecordZoneChanges: return "fetchedRecordZoneChanges"
            case .sentDatabaseChanges: return "sentDatabaseChanges"
            case .sentRecordZoneChanges: return "sentRecordZoneChanges"
            case .willFetchChanges: return "willFetchChanges"
            case .willFetchRecordZoneChanges: return "willFetchRecordZoneChanges"
            case .didFetchRecordZoneChanges: return "didFetchRecordZoneChanges"
            case .didFetchChanges: return "didFetchChanges"
            case .willSendChanges: return "willSendChanges"
            case .didSendChanges: return "didSendChanges"
            }
        }
    }

    /// `CKSyncEngine.Event.StateUpdate`.
    public struct StateUpdate: Hashable, Sendable {
        public var stateSerialization: State.Serialization
    }

    /// `CKSyncEngine.Event.AccountChange`.
    public struct AccountChange: Hashable, Sendable {
        public enum ChangeType: Hashable, Sendable {
            case signIn(currentUser: String)
            case signOut(previousUser: String)
            case switchAccounts(previousUser: String, currentUser: String)
        }
        public var changeType: ChangeType
    }

    /// `CKSyncEngine.Event.FetchedDatabaseChanges`.
    public struct FetchedDatabaseChanges: Hashable, Sendable {
        public var modifications: [ZoneID]
        public var deletions: [ZoneDeletion]
    }

    /// `CKSyncEngine.Event.FetchedRecordZoneChanges`.
    public struct FetchedRecordZoneChanges: Hashable, Sendable {
        public struct Deletion: Hashable, Sendable {
            public var recordID: RecordID
            public var recordType: String
        }
        public var modifications: [CloudRecord]
        public var deletions: [Deletion]
    }

    /// `CKSyncEngine.Event.SentDatabaseChanges`.
    public struct SentDatabaseChanges: Hashable, Sendable {
        public struct FailedZoneSave: Hashable, Sendable {
            public var zoneID: ZoneID
            public var error: CloudError
        }
        public struct FailedZoneDelete: Hashable, Sendable {
            public var zoneID: ZoneID
            public var error: CloudError
        }
        public var savedZones: [ZoneID] = []
        public var failedZoneSaves: [FailedZoneSave] = []
        public var deletedZoneIDs: [ZoneID] = []
        /// A dictionary in Apple's API; here in request order.
        public var failedZoneDeletes: [FailedZoneDelete] = []
    }

    /// `CKSyncEngine.Event.SentRecordZoneChanges`.
    public struct SentRecordZoneChanges: Hashable, Sendable {
        public struct FailedRecordSave: Hashable, Sendable {
            /// The record as the engine sent it.
            public var record: CloudRecord
            /// For `serverRecordChanged`, `error.serverRecord` is the server's copy.
            public var error: CloudError
        }
        public struct FailedRecordDelete: Hashable, Sendable {
            public var recordID: RecordID
            public var error: CloudError
        }
        public var savedRecords: [CloudRecord] = []
        public var failedRecordSaves: [FailedRecordSave] = []
        public var deletedRecordIDs: [RecordID] = []
        /// A dictionary in Apple's API; here in request order.
        public var failedRecordDeletes: [FailedRecordDelete] = []
    }
}
