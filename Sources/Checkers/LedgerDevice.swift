import LocalStore
import SyncContract

/// What the save ledger reads of a device at statement boundaries: its store, its
/// observation (read only when the app changed the store), its name and account.
package protocol LedgerDevice: AnyObject {
    /// The author of the store's history entries the app made.
    static var appAuthor: String { get }
    var name: String { get }
    var account: String? { get }
    var store: Store { get }
    var observation: any EngineObservation { get }
    /// Whether the device uses another's store (an extension, its app's: EXT-1).
    var sharesHostStore: Bool { get }
}
