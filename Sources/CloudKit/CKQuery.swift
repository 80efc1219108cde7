import CloudSim
import Foundation

/// Apple's `CKQuery`: the records of one type that a predicate matches. The simulated server
/// evaluates `NSPredicate(value:)`, `NSPredicate(format:)` of the subset CloudKit accepts and
/// `AND` compounds of them, as CloudKit does (NSPredicate+Server.swift); for a block predicate
/// it returns the records of the type and the device evaluates the predicate on each.
public final class CKQuery: NSObject, @unchecked Sendable {
    // `@unchecked`: used on its device's thread only.
    public let recordType: CKRecord.RecordType
    public let predicate: NSPredicate
    /// The order of the matches, each made with `NSSortDescriptor(key:ascending:)` and sent
    /// to the server; a descriptor made otherwise fails the query with `invalidArguments`.
    public var sortDescriptors: [NSSortDescriptor]?

    public init(recordType: CKRecord.RecordType, predicate: NSPredicate) {
        self.recordType = recordType
        self.predicate = predicate
    }
}

extension CKQuery {
    /// The server's form of the sort descriptors; `invalidArguments` for one not made with
    /// `NSSortDescriptor(key:ascending:)` (a key path or a comparator cannot leave the device).
    func serverSorts() throws -> [QuerySort] {
        try (sortDescriptors ?? []).map { descriptor in
            guard let sort = NSSortDescriptor.querySorts.value(for: descriptor) else {
                throw CKError(.invalidArguments, userInfo: [NSLocalizedDescriptionKey:
                    "A query's sort descriptors must be made with "
                    + "NSSortDescriptor(key:ascending:)"])
            }
            return sort
        }
    }
}

extension CKDatabase {
    /// One page of a query (Apple's `records(matching:inZoneWith:desiredKeys:resultsLimit:)`):
    /// a nil zone searches every zone of the private database. The predicate sees every field,
    /// as the server's does; each match has the fields `desiredKeys` lists (nil: every field).
    public func records(
        matching query: CKQuery, inZoneWith zoneID: CKRecordZone.ID? = nil,
        desiredKeys: [CKRecord.FieldKey]? = nil,
        resultsLimit: Int = CKQueryOperation.maximumResults
    ) async throws -> (
        matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)],
        queryCursor: CKQueryOperation.Cursor?
    ) {
        try await queryPage(
            query, zoneID: zoneID, limit: resultsLimit, after: nil, desiredKeys: desiredKeys)
    }

    /// The next page after a cursor (Apple's
    /// `records(continuingMatchFrom:desiredKeys:resultsLimit:)`).
    public func records(
        continuingMatchFrom queryCursor: CKQueryOperation.Cursor,
        desiredKeys: [CKRecord.FieldKey]? = nil,
        resultsLimit: Int = CKQueryOperation.maximumResults
    ) async throws -> (
        matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)],
        queryCursor: CKQueryOperation.Cursor?
    ) {
        try await queryPage(
            queryCursor.query, zoneID: queryCursor.zoneID, limit: resultsLimit,
            after: queryCursor.cursor, desiredKeys: desiredKeys)
    }

    /// One `.queryRecords` request with the predicate the server evaluates; for a block
    /// predicate, the device's evaluation of it on the page (a page may then hold fewer
    /// matches than the limit and still have a cursor). A format predicate outside the
    /// subset fails with `invalidArguments` before any request.
    private func queryPage(
        _ query: CKQuery, zoneID: CKRecordZone.ID?, limit: Int, after cursor: QueryCursor?,
        desiredKeys: [CKRecord.FieldKey]?
    ) async throws -> (
        matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)],
        queryCursor: CKQueryOperation.Cursor?
    ) {
        let runtime = try Self.runtime("records(matching:)")
        let evaluation = PredicateEvaluation(query.predicate)
        if case .refused(let message) = evaluation {
            throw CKError(.invalidArguments, userInfo: [NSLocalizedDescriptionKey: message])
        }
        let account = runtime.account ?? ""
        var request = RecordQuery(
            recordType: query.recordType, zone: zoneID?.simulated(account: account))
        if case .server(let predicate) = evaluation { request.predicate = predicate }
        request.sortedBy = try query.serverSorts()
        let response = await runtime.request(.queryRecords(
            scope: databaseScope.simulated, request, resultsLimit: limit, cursor: cursor))
        guard case .recordsQueried(let records, let next) = response else {
            throw Self.error(response, runtime)
        }
        var results: [(CKRecord.ID, Result<CKRecord, any Error>)] = []
        for stored in records { // tidy: ordered (an array, in the server's order)
            let record = CKRecord.from(stored, account: runtime.account)
            if evaluation == .device, !query.predicate.evaluate(with: record) { continue }
            results.append((record.recordID, .success(record.keepingOnly(desiredKeys))))
        }
        let queryCursor = next.map { CKQueryOperation.Cursor($0, query: query, zoneID: zoneID) }
        return (results, queryCursor)
    }
}
