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

    public override init() {}

    public convenience init(recordIDs: [CKRecord.ID]) {
        self.init()
        self.recordIDs = recordIDs
    }

    override func perform(on database: CKDatabase) async {
        let ids = recordIDs ?? []
        let results: [CKRecord.ID: Result<CKRecord, any Error>]
        do {
            guard !isCancelled else { throw CKError(.operationCancelled) }
            results = try await database.records(for: ids, desiredKeys: desiredKeys)
        } catch {
            fetchRecordsResultBlock?(.failure(error))
            fetchRecordsCompletionBlock?(nil, error)
            return
        }
        var found: [CKRecord.ID: CKRecord] = [:]
        var failures: [AnyHashable: any Error] = [:]
        for id in ids { // tidy: ordered (the app's array)
            let result = results[id] ?? .failure(CKError(.unknownItem))
            perRecordResultBlock?(id, result)
            switch result {
            case .success(let record): found[id] = record
            case .failure(let error): failures[id] = error
            }
        }
        let error: CKError? = failures.isEmpty ? nil : CKError(partialFailure: failures)
        fetchRecordsResultBlock?(error.map { .failure($0) } ?? .success(()))
        fetchRecordsCompletionBlock?(found, error)
    }
}
