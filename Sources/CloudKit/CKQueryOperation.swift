import CloudSim
import Foundation

/// Apple's `CKQueryOperation`: one page of a query's matches, or of the page after a cursor.
/// Each match reaches `recordMatchedBlock` in the server's order, then `queryResultBlock`
/// gets the cursor of the next page (nil after the last). An app that wants the next page
/// adds an operation made with that cursor, as on Apple platforms.
open class CKQueryOperation: CKDatabaseOperation, @unchecked Sendable {
    /// Let the server choose the page size (100 here).
    public static let maximumResults = 0

    /// Where the next page of a query starts.
    public final class Cursor: NSObject, @unchecked Sendable {
        // `@unchecked`: immutable.
        let cursor: QueryCursor
        let query: CKQuery
        let zoneID: CKRecordZone.ID?

        init(_ cursor: QueryCursor, query: CKQuery, zoneID: CKRecordZone.ID?) {
            self.cursor = cursor
            self.query = query
            self.zoneID = zoneID
        }
    }

    public var query: CKQuery?
    public var cursor: Cursor?
    public var zoneID: CKRecordZone.ID?
    public var desiredKeys: [CKRecord.FieldKey]?
    public var resultsLimit: Int = CKQueryOperation.maximumResults
    public var recordMatchedBlock: ((CKRecord.ID, Result<CKRecord, any Error>) -> Void)?
    public var queryResultBlock: ((Result<Cursor?, any Error>) -> Void)?
    /// Apple's earlier per-record block.
    public var recordFetchedBlock: ((CKRecord) -> Void)?
    /// Apple's earlier result block: the cursor and the error.
    public var queryCompletionBlock: ((Cursor?, (any Error)?) -> Void)?

    public override init() {}

    public convenience init(query: CKQuery) {
        self.init()
        self.query = query
    }

    public convenience init(cursor: Cursor) {
        self.init()
        self.cursor = cursor
    }

    override func perform(on database: CKDatabase) async {
        let page: (matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)],
                   queryCursor: Cursor?)
        do {
            guard !isCancelled else { throw CKError(.operationCancelled) }
            if let cursor {
                page = try await database.records(continuingMatchFrom: cursor,
                    desiredKeys: desiredKeys, resultsLimit: resultsLimit)
            } else if let query {
                page = try await database.records(matching: query, inZoneWith: zoneID,
                    desiredKeys: desiredKeys, resultsLimit: resultsLimit)
            } else {
                throw CKError(.invalidArguments)
            }
        } catch {
            queryResultBlock?(.failure(error))
            queryCompletionBlock?(nil, error)
            return
        }
        for (id, result) in page.matchResults {
            recordMatchedBlock?(id, result)
            if case .success(let record) = result { recordFetchedBlock?(record) }
        }
        queryResultBlock?(.success(page.queryCursor))
        queryCompletionBlock?(page.queryCursor, nil)
    }
}
