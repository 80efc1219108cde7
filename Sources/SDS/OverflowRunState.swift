import CloudSim
import SyncContract

/// What one synchronization remembers about overflow assets while it uploads (BIG-3); in
/// memory, lost on a kill.
struct OverflowRunState: Hashable, Sendable {
    /// The record as iCloud held it when fetched before the upload; `.absent` when it did not
    /// exist.
    enum Base: Hashable, Sendable {
        case absent
        case record(CloudRecord)

        var record: CloudRecord? {
            if case .record(let record) = self { return record }
            return nil
        }
    }

    /// Records fetched by this synchronization, by name.
    /// (Made by `init()`: the literal `[:]` is a call, per upload.)
    var bases = [String: Base]()
    /// The names of the `fetchRecords` request in flight, empty when none is.
    var fetching: [String] = []
    /// Records to fetch although the plan made from what this device knows did not involve
    /// their asset: a save iCloud found too large (BIG-1), an adoption whose server record
    /// came without its asset's contents (ADOPT-2).
    var mustFetch: Set<String> = []
}
