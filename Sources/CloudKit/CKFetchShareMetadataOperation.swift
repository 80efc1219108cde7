import Foundation

/// Apple's `CKFetchShareMetadataOperation`: the metadata of share URLs, a container operation
/// (`CKContainer.add(_:)`), one request per URL. Each URL's result reaches
/// `perShareMetadataResultBlock` in the order given (a URL no live share has as
/// `unknownItem`); if any failed, the result is a `partialFailure` holding the errors by URL.
///
/// With `shouldFetchRootRecord`, a hierarchy share's metadata carries its root record with
/// the `rootRecordDesiredKeys` fields, for an account that may accept the share (the owner, an
/// invited participant, anyone while the share is public); a zone-wide share has no root.
open class CKFetchShareMetadataOperation: CKOperation, @unchecked Sendable {
    public var shareURLs: [URL]?
    public var shouldFetchRootRecord = false
    public var rootRecordDesiredKeys: [CKRecord.FieldKey]?
    public var perShareMetadataResultBlock: ((URL, Result<CKShare.Metadata, any Error>) -> Void)?
    public var fetchShareMetadataResultBlock: ((Result<Void, any Error>) -> Void)?

    public override init() {}

    public convenience init(shareURLs: [URL]) {
        self.init()
        self.shareURLs = shareURLs
    }

    override var runsInContainer: Bool { true }

    override func perform(in container: CKContainer) async {
        guard !isCancelled else {
            fetchShareMetadataResultBlock?(.failure(CKError(.operationCancelled)))
            return
        }
        var failures: [AnyHashable: any Error] = [:]
        for url in shareURLs ?? [] { // tidy: ordered (the app's array)
            let result: Result<CKShare.Metadata, any Error>
            do {
                result = .success(try await container.fetchedShareMetadata(for: url,
                    rootRecordKeys: shouldFetchRootRecord ? .some(rootRecordDesiredKeys) : nil))
            } catch {
                result = .failure(error)
            }
            if case .failure(let error) = result { failures[url] = error }
            perShareMetadataResultBlock?(url, result)
        }
        fetchShareMetadataResultBlock?(failures.isEmpty
            ? .success(()) : .failure(CKError(partialFailure: failures)))
    }
}
