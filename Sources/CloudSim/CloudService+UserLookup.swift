/// How a user is looked up (`CKUserIdentity.LookupInfo`): SyncLab's accounts have their name
/// as email address and no phone number.
public enum UserLookup: Hashable, Sendable {
    case emailAddress(String)
    case phoneNumber(String)
    /// The user record name `fetchUserRecordID` answers for the account.
    case userRecordName(String)
}

extension CloudService {
    /// The lookups a device makes before it shares or accepts: a user, a share's metadata.
    func answerLookup(_ request: CloudRequest, account: String) -> CloudOutcome {
        switch request {
        case .lookUpUser(let lookup):
            return lookUpUser(lookup)
        case .fetchShareMetadata(let url, let root):
            return fetchShareMetadata(url: url, rootRecord: root, account: account)
        default:
            preconditionFailure("not a lookup")
        }
    }

    /// `CKFetchShareParticipantsOperation`: the account a lookup names, among the accounts the
    /// cloud knows (configured, or signed in once); `unknownItem` for any other, and for a
    /// phone number ([CKFetchShareParticipantsOperation]: a participant per lookup or an
    /// error saying why CloudKit cannot find it).
    func lookUpUser(_ lookup: UserLookup) -> CloudOutcome {
        let found: String?
        switch lookup {
        case .emailAddress(let address):
            found = accountStates.index(forKey: address) == nil ? nil : address
        case .phoneNumber:
            found = nil
        case .userRecordName(let name):
            let accounts = accountStates.keys // tidy: ordered (a sorted map, in name order)
            found = accounts.first { userRecordName(of: $0) == name }
        }
        guard let found else {
            return CloudOutcome(response: .failure(CloudError(.unknownItem,
                message: "User not found")))
        }
        return CloudOutcome(response: .sharingLookedUp(.userFound(account: found)))
    }
}
