import Foundation

/// Apple's completion-handler calls of `CKDatabase` for records, queries and several zones at
/// once: each starts a task of the calling device that makes the `async` call and hands its
/// result to the handler there, as `CKDatabase+CompletionHandlers.swift` does for one item.
extension CKDatabase {
    /// Apple's earlier query call: the first page of matches (the server's page size).
    public func perform(_ query: CKQuery, inZoneWith zoneID: CKRecordZone.ID?,
                        completionHandler: @escaping ([CKRecord]?, (any Error)?) -> Void) {
        startCall("perform(_:inZoneWith:completionHandler:)") { database in
            do {
                let page = try await database.records(matching: query, inZoneWith: zoneID)
                completionHandler(page.matchResults.compactMap { try? $0.1.get() }, nil)
            } catch {
                completionHandler(nil, error)
            }
        }
    }

    public func fetch(
        withRecordIDs recordIDs: [CKRecord.ID], desiredKeys: [CKRecord.FieldKey]? = nil,
        completionHandler: @escaping (Result<[CKRecord.ID: Result<CKRecord, any Error>],
            any Error>) -> Void
    ) {
        startCall("fetch(withRecordIDs:desiredKeys:completionHandler:)") { database in
            await completionHandler(Result {
                try await database.records(for: recordIDs, desiredKeys: desiredKeys)
            })
        }
    }

    public func fetch(
        withQuery query: CKQuery, inZoneWith zoneID: CKRecordZone.ID? = nil,
        desiredKeys: [CKRecord.FieldKey]? = nil,
        resultsLimit: Int = CKQueryOperation.maximumResults,
        completionHandler: @escaping (Result<(matchResults: [(CKRecord.ID, Result<CKRecord,
            any Error>)], queryCursor: CKQueryOperation.Cursor?), any Error>) -> Void
    ) {
        startCall("fetch(withQuery:inZoneWith:desiredKeys:resultsLimit:completionHandler:)") {
            database in
            await completionHandler(Result {
                try await database.records(matching: query, inZoneWith: zoneID,
                    desiredKeys: desiredKeys, resultsLimit: resultsLimit)
            })
        }
    }

    public func fetch(
        withCursor queryCursor: CKQueryOperation.Cursor, desiredKeys: [CKRecord.FieldKey]? = nil,
        resultsLimit: Int = CKQueryOperation.maximumResults,
        completionHandler: @escaping (Result<(matchResults: [(CKRecord.ID, Result<CKRecord,
            any Error>)], queryCursor: CKQueryOperation.Cursor?), any Error>) -> Void
    ) {
        startCall("fetch(withCursor:desiredKeys:resultsLimit:completionHandler:)") { database in
            await completionHandler(Result {
                try await database.records(continuingMatchFrom: queryCursor,
                    desiredKeys: desiredKeys, resultsLimit: resultsLimit)
            })
        }
    }

    public func modifyRecords(
        saving recordsToSave: [CKRecord], deleting recordIDsToDelete: [CKRecord.ID],
        savePolicy: CKModifyRecordsOperation.RecordSavePolicy = .ifServerRecordUnchanged,
        atomically: Bool = true,
        completionHandler: @escaping (Result<(saveResults: [CKRecord.ID: Result<CKRecord,
            any Error>], deleteResults: [CKRecord.ID: Result<Void, any Error>]),
            any Error>) -> Void
    ) {
        startCall("modifyRecords(saving:deleting:savePolicy:atomically:completionHandler:)") {
            database in
            await completionHandler(Result {
                try await database.modifyRecords(saving: recordsToSave,
                    deleting: recordIDsToDelete, savePolicy: savePolicy, atomically: atomically)
            })
        }
    }

    public func modifyRecordZones(
        saving recordZonesToSave: [CKRecordZone], deleting recordZoneIDsToDelete: [CKRecordZone.ID],
        completionHandler: @escaping (Result<(saveResults: [CKRecordZone.ID: Result<CKRecordZone,
            any Error>], deleteResults: [CKRecordZone.ID: Result<Void, any Error>]),
            any Error>) -> Void
    ) {
        startCall("modifyRecordZones(saving:deleting:completionHandler:)") { database in
            await completionHandler(Result {
                try await database.modifyRecordZones(saving: recordZonesToSave,
                    deleting: recordZoneIDsToDelete)
            })
        }
    }

    /// Starts `body` as a task of the calling device; its handler runs there.
    func startCall(_ call: String, _ body: @escaping (CKDatabase) async -> Void) {
        _ = try? Self.runtime(call)
        nonisolated(unsafe) let body = body
        Task { await body(self) }
    }
}

extension Result where Failure == any Error {
    /// Apple's handlers take the `async` call's outcome as a `Result`.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
