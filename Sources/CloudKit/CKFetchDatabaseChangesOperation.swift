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
    /// A zone deleted because the user reset their encrypted data, instead of the deleted
    /// block; when unset, such a zone reaches `recordZoneWithIDWasDeletedBlock`.
    public var recordZoneWithIDWasDeletedDueToUserEncryptedDataResetBlock:
        ((CKRecordZone.ID) -> Void)?
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
            for deletion in page.deletions { report(deletion) }
            token = page.changeToken
            guard page.moreComing, fetchAllChanges else {
                fetchDatabaseChangesResultBlock?(.success((page.changeToken, page.moreComing)))
                fetchDatabaseChangesCompletionBlock?(page.changeToken, page.moreComing, nil)
                return
            }
            changeTokenUpdatedBlock?(page.changeToken)
        }
    }

    /// A purged or reset zone goes to its own block when the app set it, else to the deleted
    /// block (Apple documents no fallback for the reset block; the deleted one still says
    /// the zone is gone).
    private func report(_ deletion: CKDatabase.DatabaseChange.Deletion) {
        switch deletion.reason {
        case .purged:
            if let purged = recordZoneWithIDWasPurgedBlock { return purged(deletion.zoneID) }
        case .encryptedDataReset:
            if let reset = recordZoneWithIDWasDeletedDueToUserEncryptedDataResetBlock {
                return reset(deletion.zoneID)
            }
        case .deleted:
            break
        }
        recordZoneWithIDWasDeletedBlock?(deletion.zoneID)
    }
}
