import Foundation

/// Apple's completion-handler calls of `CKContainer`: each starts a task of the calling device
/// that makes the `async` call and hands its result to the handler there.
extension CKContainer {
    public func accountStatus(
        completionHandler: @escaping (CKAccountStatus, (any Error)?) -> Void
    ) {
        startCall("accountStatus(completionHandler:)") { container in
            do { completionHandler(try await container.accountStatus(), nil) } catch {
                completionHandler(.couldNotDetermine, error)
            }
        }
    }

    public func fetchUserRecordID(
        completionHandler: @escaping (CKRecord.ID?, (any Error)?) -> Void
    ) {
        startCall("fetchUserRecordID(completionHandler:)") { container in
            do { completionHandler(try await container.userRecordID(), nil) } catch {
                completionHandler(nil, error)
            }
        }
    }

    public func fetchShareMetadata(
        with url: URL, completionHandler: @escaping (CKShare.Metadata?, (any Error)?) -> Void
    ) {
        startCall("fetchShareMetadata(with:completionHandler:)") { container in
            do { completionHandler(try await container.shareMetadata(for: url), nil) } catch {
                completionHandler(nil, error)
            }
        }
    }

    public func accept(
        _ metadata: CKShare.Metadata,
        completionHandler: @escaping (CKShare?, (any Error)?) -> Void
    ) {
        startCall("accept(_:completionHandler:)") { container in
            do { completionHandler(try await container.accept(metadata), nil) } catch {
                completionHandler(nil, error)
            }
        }
    }

    public func fetchShareParticipant(
        withEmailAddress emailAddress: String,
        completionHandler: @escaping (CKShare.Participant?, (any Error)?) -> Void
    ) {
        startCall("fetchShareParticipant(withEmailAddress:completionHandler:)") { container in
            do {
                completionHandler(
                    try await container.shareParticipant(forEmailAddress: emailAddress), nil)
            } catch {
                completionHandler(nil, error)
            }
        }
    }

    public func fetchShareParticipant(
        withUserRecordID userRecordID: CKRecord.ID,
        completionHandler: @escaping (CKShare.Participant?, (any Error)?) -> Void
    ) {
        startCall("fetchShareParticipant(withUserRecordID:completionHandler:)") { container in
            do {
                completionHandler(
                    try await container.shareParticipant(forUserRecordID: userRecordID), nil)
            } catch {
                completionHandler(nil, error)
            }
        }
    }

    /// Runs an operation in this container (Apple's `add(_:)`), as a task of the calling
    /// device once the code running now yields: a sharing operation
    /// (`CKFetchShareMetadataOperation`, `CKAcceptSharesOperation`,
    /// `CKFetchShareParticipantsOperation`) in the container; a database operation on the
    /// database it names, else on the container's private database (Apple's default).
    public func add(_ operation: CKOperation) {
        _ = try? CKDatabase.runtime("add(_:)")
        operation.configuration.container = self
        if operation.runsInContainer {
            Task { await operation.run(in: self) }
            return
        }
        let database = (operation as? CKDatabaseOperation)?.database ?? privateCloudDatabase
        (operation as? CKDatabaseOperation)?.database = database
        Task { await operation.run(on: database) }
    }

    /// Starts `body` as a task of the calling device; its handler runs there.
    private func startCall(_ call: String, _ body: @escaping (CKContainer) async -> Void) {
        _ = try? CKDatabase.runtime(call)
        nonisolated(unsafe) let body = body
        Task { await body(self) }
    }
}
