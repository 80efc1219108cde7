import CKSyncEngineSim
import CloudSim

extension CKSyncEngine {
    /// What one send request carries (Apple's `RecordZoneChangeBatch`).
    public struct RecordZoneChangeBatch: @unchecked Sendable {
        // `@unchecked`: records are classes, as on Apple platforms.
        public var recordsToSave: [CKRecord]
        public var recordIDsToDelete: [CKRecord.ID]
        public var atomicByZone: Bool

        public init(recordsToSave: [CKRecord] = [], recordIDsToDelete: [CKRecord.ID] = [],
            atomicByZone: Bool = false) {
            self.recordsToSave = recordsToSave
            self.recordIDsToDelete = recordIDsToDelete
            self.atomicByZone = atomicByZone
        }

        /// Walks the pending changes in order and asks the provider for each save's record
        /// (a save it answers nil for is skipped), up to CloudKit's limits of 400 items and
        /// 2 MB; nil when nothing was added.
        public init?(
            pendingChanges: [PendingRecordZoneChange],
            recordProvider: @Sendable (CKRecord.ID) async -> CKRecord?
        ) async {
            var saves: [CKRecord] = []
            var deletes: [CKRecord.ID] = []
            var bytes = 0
            walk: for change in pendingChanges {
                if saves.count + deletes.count >= Self.maximumItemCount { break }
                switch change {
                case .saveRecord(let id):
                    guard let record = await recordProvider(id) else { continue }
                    let values = record.fields.values // tidy: ordered (summed below)
                    let size = values.reduce(0) { $0 + $1.recordSizeBytes } // tidy: ordered (sum)
                    if !(saves.isEmpty && deletes.isEmpty),
                        bytes + size > Self.maximumByteCount { break walk }
                    bytes += size
                    saves.append(record)
                case .deleteRecord(let id):
                    deletes.append(id)
                }
            }
            if saves.isEmpty && deletes.isEmpty { return nil }
            self.init(recordsToSave: saves, recordIDsToDelete: deletes)
        }

        static let maximumItemCount =
            CKSyncEngineSim.CKSyncEngine.RecordZoneChangeBatch.maximumItemCount
        static let maximumByteCount =
            CKSyncEngineSim.CKSyncEngine.RecordZoneChangeBatch.maximumByteCount

        func simulated(account: String) -> CKSyncEngineSim.CKSyncEngine.RecordZoneChangeBatch {
            .init(recordsToSave: recordsToSave.map { $0.simulatedSave(account: account) },
                  recordIDsToDelete: recordIDsToDelete.map { $0.simulated(account: account) },
                  atomicByZone: atomicByZone)
        }
    }
}

extension CKRecord.ID {
    func simulated(account: String) -> RecordID {
        RecordID(recordName: recordName, zoneID: zoneID.simulated(account: account))
    }

    static func of(_ id: RecordID, account: String?) -> CKRecord.ID {
        CKRecord.ID(recordName: id.recordName, zoneID: .of(id.zoneID, account: account))
    }
}
