import Foundation

/// Apple's `CKModifyRecordZonesOperation`: saves and deletes zones, one request. Each zone's
/// result reaches its block in the order given; if any failed, the result is a
/// `partialFailure` holding the errors by zone ID.
open class CKModifyRecordZonesOperation: CKDatabaseOperation, @unchecked Sendable {
    public var recordZonesToSave: [CKRecordZone]?
    public var recordZoneIDsToDelete: [CKRecordZone.ID]?
    public var perRecordZoneSaveBlock: ((CKRecordZone.ID, Result<CKRecordZone, any Error>) -> Void)?
    public var perRecordZoneDeleteBlock: ((CKRecordZone.ID, Result<Void, any Error>) -> Void)?
    public var modifyRecordZonesResultBlock: ((Result<Void, any Error>) -> Void)?
    /// Apple's earlier result block: the saved zones, the deleted IDs and the error.
    public var modifyRecordZonesCompletionBlock:
        (([CKRecordZone]?, [CKRecordZone.ID]?, (any Error)?) -> Void)?

    public override init() {}

    public convenience init(recordZonesToSave: [CKRecordZone]?,
                            recordZoneIDsToDelete: [CKRecordZone.ID]?) {
        self.init()
        self.recordZonesToSave = recordZonesToSave
        self.recordZoneIDsToDelete = recordZoneIDsToDelete
    }

    override func perform(on database: CKDatabase) async {
        let saves = recordZonesToSave ?? []
        let deletes = recordZoneIDsToDelete ?? []
        let results: (saveResults: [CKRecordZone.ID: Result<CKRecordZone, any Error>],
                      deleteResults: [CKRecordZone.ID: Result<Void, any Error>])
        do {
            guard !isCancelled else { throw CKError(.operationCancelled) }
            results = try await database.modifyRecordZones(saving: saves, deleting: deletes)
        } catch {
            modifyRecordZonesResultBlock?(.failure(error))
            modifyRecordZonesCompletionBlock?(nil, nil, error)
            return
        }
        var failures: [AnyHashable: any Error] = [:]
        var saved: [CKRecordZone] = []
        var deleted: [CKRecordZone.ID] = []
        for zone in saves { // tidy: ordered (the app's array)
            guard let result = results.saveResults[zone.zoneID] else { continue }
            perRecordZoneSaveBlock?(zone.zoneID, result)
            switch result {
            case .success(let stored): saved.append(stored)
            case .failure(let error): failures[zone.zoneID] = error
            }
        }
        for id in deletes { // tidy: ordered (the app's array)
            guard let result = results.deleteResults[id] else { continue }
            perRecordZoneDeleteBlock?(id, result)
            switch result {
            case .success: deleted.append(id)
            case .failure(let error): failures[id] = error
            }
        }
        let error: CKError? = failures.isEmpty ? nil : CKError(partialFailure: failures)
        modifyRecordZonesResultBlock?(error.map { .failure($0) } ?? .success(()))
        modifyRecordZonesCompletionBlock?(saved, deleted, error)
    }
}
