import Kernel
import SyncContract

/// What the `sds` engine knows about one record's overflow asset (BIG-2 .. BIG-5, LIM-6),
/// kept in `SDSSyncData.overflow` on disk: it survives a kill.
public struct OverflowRecordState: Hashable, Sendable {
    /// The keys the record's asset held when this device last saw the record (downloaded,
    /// fetched or saved), sorted.
    public var keys: [String]
    /// The stamp of this device's last upload of the asset (`device@changeTag`), while this
    /// device has not yet seen whether a later upload built on it (LIM-6).
    public var ownStamp: String?
    /// The keys whose values that upload put into the asset, sorted.
    public var ownKeys: [String]
    /// When iCloud created the record that upload went to: a record created again later (a
    /// zone deleted and filled again) starts a history of its own.
    public var ownRecordCreated: SimTime?

    public init(keys: [String] = []) {
        self.keys = keys
        self.ownStamp = nil
        self.ownKeys = []
        self.ownRecordCreated = nil
    }
}
