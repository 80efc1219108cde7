/// The `CKAccountStatus` a scenario can give a device's account with `account-status` (a
/// SyncLab addition), named as Apple names them. `noAccount` is `sign-out`: the account goes.
public enum AccountStatusSetting: String, CaseIterable, Hashable, Sendable {
    case available
    /// Parental controls or device management keep the app from iCloud.
    case restricted
    /// The account daemon could not tell the status.
    case couldNotDetermine
    /// Signed in but not ready (as `account-unavailable`).
    case temporarilyUnavailable
}
