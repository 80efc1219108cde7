import CloudSim
import Foundation

/// Apple's `CKModifyRecordsOperation`: saves and deletes records, with a block per record and
/// one for the whole operation. It sends what `CKDatabase.modifyRecords` sends (one request
/// in the private database, atomic per zone when `isAtomic`); a failed item makes the result
/// a `partialFailure` holding the items' errors, as Apple's does.
open class CKModifyRecordsOperation: CKDatabaseOperation, @unchecked Sendable {
    public enum RecordSavePolicy: Int, Sendable {
        case ifServerRecordUnchanged = 0
        case changedKeys = 1
        case allKeys = 2

        var simulated: SavePolicy {
            switch self {
            case .ifServerRecordUnchanged: return .ifServerRecordUnchanged
            case .changedKeys: return .changedKeys
            case .allKeys: return .allKeys
            }
        }
    }

    public var recordsToSave: [CKRecord]?
    public var recordIDsToDelete: [CKRecord.ID]?
    public var savePolicy: RecordSavePolicy = .ifServerRecordUnchanged
    public var isAtomic = true
    public var clientChangeTokenData: Data?
    public var perRecordProgressBlock: ((CKRecord, Double) -> Void)?
    public var perRecordSaveBlock: ((CKRecord.ID, Result<CKRecord, any Error>) -> Void)?
    public var perRecordDeleteBlock: ((CKRecord.ID, Result<Void, any Error>) -> Void)?
    public var modifyRecordsResultBlock: ((Result<Void, any Error>) -> Void)?
    /// Apple's earlier result block: the saved records, the deleted IDs and the error.
    public var modifyRecordsCompletionBlock: (([CKRecord]?, [CKRecord.ID]?, (any Error)?) -> Void)?
    /// Apple's earlier per-record block: the saved record (the app's, when it failed) and the
    /// error, after `perRecordSaveBlock`.
    public var perRecordCompletionBlock: ((CKRecord, (any Error)?) -> Void)?

    public override init() {}

    public convenience init(recordsToSave: [CKRecord]?, recordIDsToDelete: [CKRecord.ID]?) {
        self.init()
        self.recordsToSave = recordsToSave
        self.recordIDsToDelete = recordIDsToDelete
    }

    override func perform(on database: CKDatabase) async {
        let saves = recordsToSave ?? []
        let deletes = recordIDsToDelete ?? []
        guard !isCancelled else { return finish(.failure(CKError(.operationCancelled)), [], []) }
        let results: (saveResults: [CKRecord.ID: Result<CKRecord, any Error>],
            deleteResults: [CKRecord.ID: Result<Void, any Error>])
        do {
            results = try await database.modifyRecords(saving: saves, deleting: deletes,
                savePolicy: savePolicy, atomically: isAtomic)
        } catch {
            return finish(.failure(error), [], [])
        }
        var failures: [AnyHashable: any Error] = [:]
        var saved: [CKRecord] = []
        for record in saves { // tidy: ordered (the app's array)
            guard let result = results.saveResults[record.recordID] else { continue }
            perRecordProgressBlock?(record, 1)
            perRecordSaveBlock?(record.recordID, result)
            switch result {
            case .success(let stored):
                saved.append(stored)
                perRecordCompletionBlock?(stored, nil)
            case .failure(let error):
                failures[record.recordID] = error
                perRecordCompletionBlock?(record, error)
            }
        }
        var deleted: [CKRecord.ID] = []
        for id in deletes { // tidy: ordered (the app's array)
            guard let result = results.deleteResults[id] else { continue }
            perRecordDeleteBlock?(id, result)
            switch result {
            case .success: deleted.append(id)
            case .failure(let error): failures[id] = error
            }
        }
        let outcome: Result<Void, any Error> = failures.isEmpty
            ? .success(()) : .failure(CKError(partialFailure: failures))
        finish(outcome, saved, deleted)
    }

    private func finish(_ outcome: Result<Void, any Error>, _ saved: [CKRecord],
                        _ deleted: [CKRecord.ID]) {
        modifyRecordsResultBlock?(outcome)
        if let modifyRecordsCompletionBlock {
            if case .failure(let error) = outcome {
                modifyRecordsCompletionBlock(saved, deleted, error)
            } else {
                modifyRecordsCompletionBlock(saved, deleted, nil)
            }
        }
    }
}
