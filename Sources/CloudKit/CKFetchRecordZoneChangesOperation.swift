import Foundation

/// Apple's `CKFetchRecordZoneChangesOperation`: the changes of several zones since their
/// tokens. Zones are fetched one after another in the order given; each page's changed
/// records and deletions reach their blocks in the server's order, then the page's token
/// (`recordZoneChangeTokensUpdatedBlock` while more is coming), and each zone ends with
/// `recordZoneFetchResultBlock`. With `fetchAllChanges` false a zone stops after one page and
/// reports `moreComing`. A zone that fails ends with its error, and the operation's result is
/// then a `partialFailure` holding the errors by zone ID.
open class CKFetchRecordZoneChangesOperation: CKDatabaseOperation, @unchecked Sendable {
    /// Apple's per-zone options: where to start, how many changes a page may hold, which keys.
    public final class ZoneConfiguration: NSObject, @unchecked Sendable {
        public var previousServerChangeToken: CKServerChangeToken?
        public var resultsLimit: Int = 0
        public var desiredKeys: [CKRecord.FieldKey]?

        public override init() {}

        /// A nil `resultsLimit` leaves the page size to the server (Apple's default, 0).
        public convenience init(previousServerChangeToken: CKServerChangeToken? = nil,
                                resultsLimit: Int? = nil, desiredKeys: [CKRecord.FieldKey]? = nil) {
            self.init()
            self.previousServerChangeToken = previousServerChangeToken
            self.resultsLimit = resultsLimit ?? 0
            self.desiredKeys = desiredKeys
        }
    }

    public typealias ZoneResult = (serverChangeToken: CKServerChangeToken,
                                   clientChangeTokenData: Data?, moreComing: Bool)

    public var recordZoneIDs: [CKRecordZone.ID]?
    public var configurationsByRecordZoneID: [CKRecordZone.ID: ZoneConfiguration]?
    /// Apple's earlier per-zone options, read when a zone has no configuration.
    public var optionsByRecordZoneID: [CKRecordZone.ID: ZoneOptions]?
    public var fetchAllChanges = true
    public var recordWasChangedBlock: ((CKRecord.ID, Result<CKRecord, any Error>) -> Void)?
    /// Apple's earlier per-record block.
    public var recordChangedBlock: ((CKRecord) -> Void)?
    public var recordWithIDWasDeletedBlock: ((CKRecord.ID, CKRecord.RecordType) -> Void)?
    public var recordZoneChangeTokensUpdatedBlock:
        ((CKRecordZone.ID, CKServerChangeToken?, Data?) -> Void)?
    public var recordZoneFetchResultBlock:
        ((CKRecordZone.ID, Result<ZoneResult, any Error>) -> Void)?
    /// Apple's earlier per-zone block: token, client token data, more coming, error.
    public var recordZoneFetchCompletionBlock:
        ((CKRecordZone.ID, CKServerChangeToken?, Data?, Bool, (any Error)?) -> Void)?
    public var fetchRecordZoneChangesResultBlock: ((Result<Void, any Error>) -> Void)?
    /// Apple's earlier result block.
    public var fetchRecordZoneChangesCompletionBlock: (((any Error)?) -> Void)?

    public override init() {}

    public convenience init(recordZoneIDs: [CKRecordZone.ID]? = nil,
                            configurationsByRecordZoneID: [CKRecordZone.ID: ZoneConfiguration]? =
                                nil) {
        self.init()
        self.recordZoneIDs = recordZoneIDs
        self.configurationsByRecordZoneID = configurationsByRecordZoneID
    }

    override func perform(on database: CKDatabase) async {
        var failures: [AnyHashable: any Error] = [:]
        for zone in recordZoneIDs ?? [] { // tidy: ordered (the app's array)
            if let error = await fetch(zone, on: database) { failures[zone] = error }
        }
        let outcome: Result<Void, any Error> = failures.isEmpty
            ? .success(()) : .failure(CKError(partialFailure: failures))
        fetchRecordZoneChangesResultBlock?(outcome)
        if case .failure(let error) = outcome {
            fetchRecordZoneChangesCompletionBlock?(error)
        } else {
            fetchRecordZoneChangesCompletionBlock?(nil)
        }
    }

    /// Fetches one zone's pages; returns its error, if it failed.
    private func fetch(_ zone: CKRecordZone.ID, on database: CKDatabase) async -> (any Error)? {
        let configuration = configuration(of: zone)
        var token = configuration?.previousServerChangeToken
        while true {
            let page: (records: [CKRecord], deletions: [CKDatabase.RecordZoneChange.Deletion],
                       token: CKServerChangeToken, moreComing: Bool)
            do {
                guard !isCancelled else { throw CKError(.operationCancelled) }
                page = try await database.zoneChangePage(zone, since: token,
                    resultsLimit: configuration?.resultsLimit,
                    desiredKeys: configuration?.desiredKeys)
            } catch {
                recordZoneFetchResultBlock?(zone, .failure(error))
                recordZoneFetchCompletionBlock?(zone, nil, nil, false, error)
                return error
            }
            for record in page.records {
                recordWasChangedBlock?(record.recordID, .success(record))
                recordChangedBlock?(record)
            }
            for deletion in page.deletions {
                recordWithIDWasDeletedBlock?(deletion.recordID, deletion.recordType)
            }
            token = page.token
            guard page.moreComing, fetchAllChanges else {
                recordZoneFetchResultBlock?(zone, .success((page.token, nil, page.moreComing)))
                recordZoneFetchCompletionBlock?(zone, page.token, nil, page.moreComing, nil)
                return nil
            }
            recordZoneChangeTokensUpdatedBlock?(zone, page.token, nil)
        }
    }
}
