import Foundation

/// Apple's completion-handler forms of the change fetches: each starts a task of the calling
/// device that makes the `async` call and hands its result to the handler there. A
/// `resultsLimit` of 0 is Apple's "no limit".
extension CKDatabase {
    public func fetchDatabaseChanges(
        since changeToken: CKServerChangeToken?, resultsLimit: Int = 0,
        completionHandler: @escaping (Result<(modifications: [DatabaseChange.Modification],
            deletions: [DatabaseChange.Deletion], changeToken: CKServerChangeToken,
            moreComing: Bool), any Error>) -> Void
    ) {
        startCall("fetchDatabaseChanges(since:resultsLimit:completionHandler:)") { database in
            await completionHandler(Result {
                try await database.databaseChanges(
                    since: changeToken, resultsLimit: resultsLimit > 0 ? resultsLimit : nil)
            })
        }
    }

    public func fetchRecordZoneChanges(
        inZoneWith zoneID: CKRecordZone.ID, since changeToken: CKServerChangeToken?,
        desiredKeys: [CKRecord.FieldKey]? = nil, resultsLimit: Int = 0,
        completionHandler: @escaping (Result<(modificationResultsByID: [CKRecord.ID: Result<
            RecordZoneChange.Modification, any Error>], deletions: [RecordZoneChange.Deletion],
            changeToken: CKServerChangeToken, moreComing: Bool), any Error>) -> Void
    ) {
        startCall("fetchRecordZoneChanges(inZoneWith:since:completionHandler:)") { database in
            await completionHandler(Result {
                try await database.recordZoneChanges(
                    inZoneWith: zoneID, since: changeToken, desiredKeys: desiredKeys,
                    resultsLimit: resultsLimit > 0 ? resultsLimit : nil)
            })
        }
    }
}
