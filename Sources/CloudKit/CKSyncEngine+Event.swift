import CKSyncEngineSim
import CloudSim

extension CKSyncEngine {
    /// What the engine tells its delegate, in Apple's order (docs/CKSYNCENGINE.md), with
    /// Apple's nested payload types.
    public enum Event: @unchecked Sendable, CustomStringConvertible {
        // `@unchecked`: payloads hold records (classes), as on Apple platforms.
        case stateUpdate(StateUpdate)
        case accountChange(AccountChange)
        case fetchedDatabaseChanges(FetchedDatabaseChanges)
        case fetchedRecordZoneChanges(FetchedRecordZoneChanges)
        case sentDatabaseChanges(SentDatabaseChanges)
        case sentRecordZoneChanges(SentRecordZoneChanges)
        case willFetchChanges(WillFetchChanges)
        case willFetchRecordZoneChanges(WillFetchRecordZoneChanges)
        case didFetchRecordZoneChanges(DidFetchRecordZoneChanges)
        case didFetchChanges(DidFetchChanges)
        case willSendChanges(WillSendChanges)
        case didSendChanges(DidSendChanges)

        public var description: String {
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

        public struct StateUpdate: Sendable {
            public let stateSerialization: State.Serialization
        }

        public struct AccountChange: Sendable {
            public enum ChangeType: Sendable {
                case signIn(currentUser: CKRecord.ID)
                case signOut(previousUser: CKRecord.ID)
                case switchAccounts(previousUser: CKRecord.ID, currentUser: CKRecord.ID)
            }
            public let changeType: ChangeType
        }

        public struct FetchedDatabaseChanges: Sendable {
            public struct Modification: Sendable {
                public let zoneID: CKRecordZone.ID
            }
            public struct Deletion: Sendable {
                public enum Reason: Sendable, Hashable {
                    case deleted
                    case purged
                    case encryptedDataReset
                }
                public let zoneID: CKRecordZone.ID
                public let reason: Reason
            }
            public let modifications: [Modification]
            public let deletions: [Deletion]
        }

        public struct FetchedRecordZoneChanges: @unchecked Sendable {
            public let modifications: [CKDatabase.RecordZoneChange.Modification]
            public let deletions: [CKDatabase.RecordZoneChange.Deletion]
        }

        public struct SentDatabaseChanges: @unchecked Sendable {
            public struct FailedZoneSave: @unchecked Sendable {
                public let zone: CKRecordZone
                public let error: CKError
            }
            public let savedZones: [CKRecordZone]
            public let failedZoneSaves: [FailedZoneSave]
            public let deletedZoneIDs: [CKRecordZone.ID]
            public let failedZoneDeletes: [CKRecordZone.ID: CKError]
        }

        public struct SentRecordZoneChanges: @unchecked Sendable {
            public struct FailedRecordSave: @unchecked Sendable {
                public let record: CKRecord
                public let error: CKError
            }
            public let savedRecords: [CKRecord]
            public let failedRecordSaves: [FailedRecordSave]
            public let deletedRecordIDs: [CKRecord.ID]
            public let failedRecordDeletes: [CKRecord.ID: CKError]
        }

        public struct WillFetchChanges: Sendable {
            public let context: FetchChangesContext
        }

        public struct WillFetchRecordZoneChanges: Sendable {
            public let zoneID: CKRecordZone.ID
        }

        public struct DidFetchRecordZoneChanges: Sendable {
            public let zoneID: CKRecordZone.ID
            public let error: CKError?
        }

        public struct DidFetchChanges: Sendable {
            public let context: FetchChangesContext
        }

        public struct WillSendChanges: Sendable {
            public let context: SendChangesContext
        }

        public struct DidSendChanges: Sendable {
            public let context: SendChangesContext
        }
    }
}

extension CKSyncEngine.Event {
    /// The app's view of an event of the simulated engine (`account`: the device's, to show
    /// its zones with the default owner).
    init(_ event: CKSyncEngineSim.CKSyncEngine.Event, account: String?) {
        func zone(_ id: ZoneID) -> CKRecordZone.ID { .of(id, account: account) }
        func error(_ error: CloudError) -> CKError { CKError(error, account: account) }
        func record(_ record: CloudRecord) -> CKRecord { CKRecord.from(record, account: account) }
        func user(_ name: String) -> CKRecord.ID { CKRecord.ID(recordName: name) }
        switch event {
        case .stateUpdate(let update):
            self = .stateUpdate(StateUpdate(stateSerialization: update.stateSerialization))
        case .accountChange(let change):
            switch change.changeType {
            case .signIn(let current):
                self = .accountChange(AccountChange(
                    changeType: .signIn(currentUser: user(current))))
            case .signOut(let previous):
                self = .accountChange(AccountChange(
                    changeType: .signOut(previousUser: user(previous))))
            case .switchAccounts(let previous, let current):
                self = .accountChange(AccountChange(
                    changeType: .switchAccounts(previousUser: user(previous),
                        currentUser: user(current))))
            }
        case .fetchedDatabaseChanges(let changes):
            self = .fetchedDatabaseChanges(FetchedDatabaseChanges(
                modifications: changes.modifications.map { .init(zoneID: zone($0)) },
                deletions: changes.deletions.map { .init(zoneID: zone($0.zone),
                    reason: Self.reason($0.reason)) }))
        case .fetchedRecordZoneChanges(let changes):
            self = .fetchedRecordZoneChanges(FetchedRecordZoneChanges(
                modifications: changes.modifications.map { .init(record: record($0)) },
                deletions: changes.deletions.map {
                    .init(recordID: .of($0.recordID, account: account), recordType: $0.recordType)
                }))
        case .sentDatabaseChanges(let sent):
            var failedDeletes: [CKRecordZone.ID: CKError] = [:]
            for failure in sent.failedZoneDeletes { failedDeletes[zone(failure.zoneID)] =
                error(failure.error) }
            self = .sentDatabaseChanges(SentDatabaseChanges(
                savedZones: sent.savedZones.map { CKRecordZone(zoneID: zone($0)) },
                failedZoneSaves: sent.failedZoneSaves.map {
                    .init(zone: CKRecordZone(zoneID: zone($0.zoneID)), error: error($0.error))
                },
                deletedZoneIDs: sent.deletedZoneIDs.map(zone), failedZoneDeletes: failedDeletes))
        case .sentRecordZoneChanges(let sent):
            var failedDeletes: [CKRecord.ID: CKError] = [:]
            for failure in sent.failedRecordDeletes {
                failedDeletes[.of(failure.recordID, account: account)] = error(failure.error)
            }
            self = .sentRecordZoneChanges(SentRecordZoneChanges(
                savedRecords: sent.savedRecords.map(record),
                failedRecordSaves: sent.failedRecordSaves.map { .init(record: record($0.record),
                    error: error($0.error)) },
                deletedRecordIDs: sent.deletedRecordIDs.map { .of($0, account: account) },
                failedRecordDeletes: failedDeletes))
        case .willFetchChanges(let context):
            self = .willFetchChanges(WillFetchChanges(context: .init(context, account: account)))
        case .willFetchRecordZoneChanges(let id):
            self = .willFetchRecordZoneChanges(WillFetchRecordZoneChanges(zoneID: zone(id)))
        case .didFetchRecordZoneChanges(let id, let failure):
            self = .didFetchRecordZoneChanges(DidFetchRecordZoneChanges(zoneID: zone(id),
                error: failure.map(error)))
        case .didFetchChanges(let context):
            self = .didFetchChanges(DidFetchChanges(context: .init(context, account: account)))
        case .willSendChanges(let context):
            self = .willSendChanges(WillSendChanges(context: .init(context, account: account)))
        case .didSendChanges(let context):
            self = .didSendChanges(DidSendChanges(context: .init(context, account: account)))
        }
    }

    private static func reason(_ reason: ZoneDeletionReason)
        -> FetchedDatabaseChanges.Deletion.Reason {
        switch reason {
        case .deleted: return .deleted
        case .purged: return .purged
        case .encryptedDataReset: return .encryptedDataReset
        }
    }
}
