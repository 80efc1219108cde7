import Foundation

/// Apple's `CKFetchShareParticipantsOperation`: share participants from user lookups, a
/// container operation (`CKContainer.add(_:)`). Each lookup is asked of the cloud, which
/// knows the accounts (an account's email address is its name; none has a phone number); its
/// participant (`privateUser`, read-only, pending: set the permission before inviting) or
/// error (`unknownItem` for a user it does not know) reaches `perShareParticipantResultBlock`
/// in the order given; if any failed, the result is a `partialFailure` holding the errors by
/// lookup info.
open class CKFetchShareParticipantsOperation: CKOperation, @unchecked Sendable {
    public var userIdentityLookupInfos: [CKUserIdentity.LookupInfo]?
    public var perShareParticipantResultBlock:
        ((CKUserIdentity.LookupInfo, Result<CKShare.Participant, any Error>) -> Void)?
    public var fetchShareParticipantsResultBlock: ((Result<Void, any Error>) -> Void)?

    public override init() {}

    public convenience init(userIdentityLookupInfos: [CKUserIdentity.LookupInfo]) {
        self.init()
        self.userIdentityLookupInfos = userIdentityLookupInfos
    }

    override var runsInContainer: Bool { true }

    override func perform(in container: CKContainer) async {
        guard !isCancelled else {
            fetchShareParticipantsResultBlock?(.failure(CKError(.operationCancelled)))
            return
        }
        var failures: [AnyHashable: any Error] = [:]
        for lookupInfo in userIdentityLookupInfos ?? [] { // tidy: ordered (the app's array)
            let result: Result<CKShare.Participant, any Error>
            do {
                result = .success(try await container.shareParticipant(for: lookupInfo))
            } catch {
                result = .failure(error)
                failures[lookupInfo] = error
            }
            perShareParticipantResultBlock?(lookupInfo, result)
        }
        fetchShareParticipantsResultBlock?(failures.isEmpty
            ? .success(()) : .failure(CKError(partialFailure: failures)))
    }
}
