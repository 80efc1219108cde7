import Foundation

/// Apple's `CKFetchDatabaseChangesOperation`: which zones of the database changed or went
/// away since a token. Each page's zones reach their blocks, then its token
/// (`changeTokenUpdatedBlock` while more is coming); the result block gets the last token.
/// With `fetchAllChanges` false it stops after one page and reports `moreComing`.
open class CKFetchDatabaseChangesOperation: CKDatabaseOperation, @unchecked Sendable {
    public typealias DatabaseResult = (serverChangeToken: CKServerChangeToken, moreComing: Bool)

    public var previousServerChangeToken: CKServerChangeToken?
    public var resultsLimit: Int = 0
    public var fetchAllChanges = true
    public var recordZoneWithIDChangedBlock: ((CKRecordZone.ID) -> Void)?
    public var recordZoneWithIDWasDeletedBlock: ((CKRecordZone.ID) -> Void)?
    public var recordZoneWithIDWasPurgedBlock: ((CKRecordZone.ID) -> Void)?
    public var changeTokenUpdatedBlock: ((CKServerChangeToken) -> Void)?
    public var fetchDatabaseChangesResultBlock: ((Result<DatabaseResult, any Error>) -> Void)?
    /// Apple's earlier result block: token, more coming, error.
    public var fetchDatabaseChangesCompletionBlock:
        ((CKServerChangeToken?, Bool, (any Error)?) -> Void)?

    public override init() {}

    public convenience init(previousServerChangeToken: CKServerChangeToken?) {
        self.init()
        self.previousServerChangeToken = previousServerChangeToken
    }

    override func perform(on database: CKDatabase) async {
        var token = previousServerChangeToken
        while true {
            let page: (modifications: [CKDatabase.DatabaseChange.Modification],
                       deletions: [CKDatabase.DatabaseChange.Deletion],
                       changeToken: CKServerChangeToken, moreComing: Bool)
            do {
                guard !isCancelled else { throw CKError(.operationCancelled) }
                page = try await database.databaseChanges(since: token,
                    resultsLimit: resultsLimit > 0 ? resultsLimit : nil)
            } catch {
                fetchDatabaseChangesResultBlock?(.failure(error))
                fetchDatabaseChangesCompletionBlock?(nil, false, error)
                return
            }
            for change in page.modifications { recordZoneWithIDChangedBlock?(change.zoneID) }
            for deletion in page.deletions {
                if deletion.purged, let purged = recordZoneWithIDWasPurgedBlock {
                    purged(deletion.zoneID)
                } else {
                    recordZoneWithIDWasDeletedBlock?(deletion.zoneID)
                }
            }
            token = page.changeToken
            guard page.moreComing, fetchAllChanges else {
                fetchDatabaseChangesResultBlock?(.success((page.changeToken, page.moreComing)))
                fetchDatabaseChangesCompletionBlock?(page.changeToken, page.moreComing, nil)
                return
            }
            changeTokenUpdatedBlock?(page.changeToken)
        }
    }
}
