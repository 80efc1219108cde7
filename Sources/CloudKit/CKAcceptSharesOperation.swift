import Foundation

/// Apple's `CKAcceptSharesOperation`: accepts shares from their metadata, a container
/// operation (`CKContainer.add(_:)`). Each metadata's result (the share as the cloud keeps
/// it, or the error `accept(_:)` throws) reaches `perShareResultBlock` in the order given; if
/// any failed, the result is a `partialFailure` holding the errors by share URL (the share's
/// record ID for a metadata without one). Accepted shares' records are then in the account's
/// shared database.
open class CKAcceptSharesOperation: CKOperation, @unchecked Sendable {
    public var shareMetadatas: [CKShare.Metadata]?
    public var perShareResultBlock: ((CKShare.Metadata, Result<CKShare, any Error>) -> Void)?
    public var acceptSharesResultBlock: ((Result<Void, any Error>) -> Void)?

    public override init() {}

    public convenience init(shareMetadatas: [CKShare.Metadata]) {
        self.init()
        self.shareMetadatas = shareMetadatas
    }

    override var runsInContainer: Bool { true }

    override func perform(in container: CKContainer) async {
        guard !isCancelled else {
            acceptSharesResultBlock?(.failure(CKError(.operationCancelled)))
            return
        }
        var failures: [AnyHashable: any Error] = [:]
        for metadata in shareMetadatas ?? [] { // tidy: ordered (the app's array)
            let result: Result<CKShare, any Error>
            do {
                result = .success(try await container.accept(metadata))
            } catch {
                result = .failure(error)
                let id: AnyHashable = metadata.share.url.map(AnyHashable.init)
                    ?? AnyHashable(metadata.share.recordID)
                failures[id] = error
            }
            perShareResultBlock?(metadata, result)
        }
        acceptSharesResultBlock?(failures.isEmpty
            ? .success(()) : .failure(CKError(partialFailure: failures)))
    }
}
