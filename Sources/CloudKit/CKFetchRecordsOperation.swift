import Foundation

/// Apple's `CKFetchRecordsOperation`: records by ID. Each ID's result reaches
/// `perRecordResultBlock` in the order given (a record that does not exist as `unknownItem`);
/// if any failed, the result is a `partialFailure` holding the errors by record ID.
open class CKFetchRecordsOperation: CKDatabaseOperation, @unchecked Sendable {
    public var recordIDs: [CKRecord.ID]?
    public var desiredKeys: [CKRecord.FieldKey]?
    public var perRecordResultBlock: ((CKRecord.ID, Result<CKRecord, any Error>) -> Void)?
    public var fetchRecordsResultBlock: ((Result<Void, any Error>) -> Void)?
    /// Apple's earlier result block: the records found by ID, and the error.
    public var fetchRecordsCompletionBlock: (([CKRecord.ID: CKRecord]?, (any Error)?) -> Void)?
    /// Apple's earlier per-record blocks: progress (1 once the record is in), then the record,
    /// its ID and its error.
    public var perRecordProgressBlock: ((CKRecord.ID, Double) -> Void)?
    public var perRecordCompletionBlock: ((CKRecord?, CKRecord.ID?, (any Error)?) -> Void)?
    /// Made by `fetchCurrentUserRecordOperation()`: `recordIDs` is ignored.
    private var fetchesCurrentUser = false

    public required override init() {}

    public convenience init(recordIDs: [CKRecord.ID]) {
        self.init()
        self.recordIDs = recordIDs
    }

    /// An operation that fetches the signed-in user's record (type `Users`; the simulated
    /// cloud keeps no fields in it).
    open class func fetchCurrentUserRecordOperation() -> Self {
        let operation = self.init()
        operation.fetchesCurrentUser = true
        return operation
    }

    override func perform(on database: CKDatabase) async {
        var ids = recordIDs ?? []
        let results: [CKRecord.ID: Result<CKRecord, any Error>]
        do {
            guard !isCancelled else { throw CKError(.operationCancelled) }
            if fetchesCurrentUser {
                recordIDs = nil
                let user = try await CKContainer.default().userRecordID()
                ids = [user]
                results = [user: .success(CKRecord(recordType: CKRecord.SystemType.userRecord,
                    recordID: user))]
            } else {
                results = try await database.records(for: ids, desiredKeys: desiredKeys)
            }
        } catch {
            fetchRecordsResultBlock?(.failure(error))
            fetchRecordsCompletionBlock?(nil, error)
            return
        }
        var found: [CKRecord.ID: CKRecord] = [:]
        var failures: [AnyHashable: any Error] = [:]
        for id in ids { // tidy: ordered (the app's array)
            let result = results[id] ?? .failure(CKError(.unknownItem))
            if case .success = result { perRecordProgressBlock?(id, 1) }
            perRecordResultBlock?(id, result)
            switch result {
            case .success(let record):
                found[id] = record
                perRecordCompletionBlock?(record, id, nil)
            case .failure(let error):
                failures[id] = error
                perRecordCompletionBlock?(nil, id, error)
            }
        }
        let error: CKError? = failures.isEmpty ? nil : CKError(partialFailure: failures)
        fetchRecordsResultBlock?(error.map { .failure($0) } ?? .success(()))
        fetchRecordsCompletionBlock?(found, error)
    }
}
