import LocalStore

/// What the save ledger reads of a device at a statement boundary (its observation is asked
/// apart, only when the app changed the store).
package struct LedgerDeviceRead {
    package var name: String
    package var account: String?
    package var store: Store
    /// The author of the store's history entries the app made.
    package var appAuthor: String

    package init(name: String, account: String?, store: Store, appAuthor: String) {
        self.name = name
        self.account = account
        self.store = store
        self.appAuthor = appAuthor
    }
}
