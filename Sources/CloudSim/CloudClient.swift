/// Who sends a request: the device and the account it is signed into, as the cloud sees them.
public struct CloudClient: Hashable, Sendable {
    public var device: String
    /// Nil when the device is signed out (every database call then fails `notAuthenticated`).
    public var account: String?
    /// `temporarilyUnavailable` makes calls fail `accountTemporarilyUnavailable` (ACCT-2).
    public var accountStatus: AccountStatus

    public init(device: String, account: String?, accountStatus: AccountStatus? = nil) {
        self.device = device
        self.account = account
        self.accountStatus = accountStatus ?? (account == nil ? .noAccount : .available)
    }
}
