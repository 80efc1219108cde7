import Foundation

/// Apple's `CKFetchRecordZonesOperation`: zones by ID, or every zone of the database
/// (`fetchAllRecordZonesOperation()`, as `allRecordZones()` lists them: a private database's
/// default zone first). Each zone's result reaches
/// `perRecordZoneResultBlock` in the order given (a zone that does not exist as
/// `zoneNotFound`); if any failed, the result is a `partialFailure` holding the errors by
/// zone ID.
open class CKFetchRecordZonesOperation: CKDatabaseOperation, @unchecked Sendable {
    public var recordZoneIDs: [CKRecordZone.ID]?
    public var perRecordZoneResultBlock:
        ((CKRecordZone.ID, Result<CKRecordZone, any Error>) -> Void)?
    public var fetchRecordZonesResultBlock: ((Result<Void, any Error>) -> Void)?
    /// Apple's earlier result block: the zones found by ID, and the error.
    public var fetchRecordZonesCompletionBlock:
        (([CKRecordZone.ID: CKRecordZone]?, (any Error)?) -> Void)?
    /// Made by `fetchAllRecordZonesOperation()`: the zone IDs are the database's.
    private var fetchesAll = false

    public required override init() {}

    public convenience init(recordZoneIDs zoneIDs: [CKRecordZone.ID]) {
        self.init()
        recordZoneIDs = zoneIDs
    }

    /// An operation that fetches every zone of the database it is added to.
    open class func fetchAllRecordZonesOperation() -> Self {
        let operation = self.init()
        operation.fetchesAll = true
        return operation
    }

    override func perform(on database: CKDatabase) async {
        let ids: [CKRecordZone.ID]
        let results: [CKRecordZone.ID: Result<CKRecordZone, any Error>]
        do {
            guard !isCancelled else { throw CKError(.operationCancelled) }
            if fetchesAll {
                let zones = try await database.allRecordZones()
                ids = zones.map(\.zoneID)
                results = Dictionary(zones.map { ($0.zoneID, .success($0)) },
                    uniquingKeysWith: { first, _ in first })
            } else {
                ids = recordZoneIDs ?? []
                results = try await database.recordZones(for: ids)
            }
        } catch {
            fetchRecordZonesResultBlock?(.failure(error))
            fetchRecordZonesCompletionBlock?(nil, error)
            return
        }
        var found: [CKRecordZone.ID: CKRecordZone] = [:]
        var failures: [AnyHashable: any Error] = [:]
        for id in ids where found[id] == nil && failures[id] == nil { // tidy: ordered (an array)
            let result = results[id] ?? .failure(CKError(.zoneNotFound))
            perRecordZoneResultBlock?(id, result)
            switch result {
            case .success(let zone): found[id] = zone
            case .failure(let error): failures[id] = error
            }
        }
        let error: CKError? = failures.isEmpty ? nil : CKError(partialFailure: failures)
        fetchRecordZonesResultBlock?(error.map { .failure($0) } ?? .success(()))
        fetchRecordZonesCompletionBlock?(found, error)
    }
}
