import CloudSim
import Kernel
import LocalStore
import SyncContract

extension SDSSyncData {
    /// The stored fields of `SDSSyncData` (documented at its accessors); equality and hashing
    /// compare them all, as they did when they were the struct's own.
    struct Fields: Hashable, Sendable {
        var records: RecordTable = RecordTable()
        var pending: PendingChanges = PendingChanges()
        var pendingDeletions = RecordNameMap<PendingDeletion>()
        var expiredTokenRefetch: Bool = false
        var refetchedRecords: Set<String> = []
        var deletionsMissed: Set<String> = []
        var notRefetchedSinceZoneLoss: Set<String> = []
        var deletedHere: Set<String> = []
        var uploadedMoves = RecordNameMap<String>()
        var unanswered = RecordNameMap<UnansweredUpload>()
        var databaseToken: DatabaseChangeToken?
        var zoneToken: ZoneChangeToken?
        var zoneCreated: Bool = false
        var subscribed: Bool = false
        var hasDownloadedOnce: Bool = false
        var account: String?
        var historyPosition: Int64 = 0
        var editVersion: Int64 = 0
        var parents = RecordNameMap<String>()
        var aside = RecordNameMap<AsideRecord>()
        var rejected: [String: RejectedRecord] = [:]
        var overflow: [String: OverflowRecordState] = [:]
        var pageInProgress: Bool = false
        var isRedownloading: Bool = false
        var sharedDatabaseToken: DatabaseChangeToken?
        var sharedZones: [ZoneID] = []
        var sharedZoneTokens: [ZoneID: ZoneChangeToken] = [:]
        var recordZones: [String: ZoneID] = [:]
        var staleCopies: [String: ZoneID] = [:]
        var movedIntoShares: Set<String> = []
        var sharedSubscribed: Bool = false
        var skipped: [String: String] = [:]
        var skippedDeletions: [String: String] = [:]
        var skippedRules: [String: String] = [:]
        var downloadInProgress: Bool = false
        var needsFullDownload: Bool = false
        var fullDownloadAttempts: Int = 0
        var storeGeneration: Int = 0
        var lookForModelsWithoutRecords: Bool = false
        var valueMatchingRule: String = "ADOPT-4"
    }

    /// The one reference an `SDSSyncData` holds.
    ///
    /// `@unchecked Sendable`: changed only through a uniquely held reference (`makeUnique`
    /// copies it first otherwise), like the storage of the standard library's collections.
    /// `@exclusivity(unchecked)`: the same rule keeps two accesses from overlapping (a
    /// reference is changed only where no other holder can read it), so the runtime check,
    /// paid on every access, could never fire.
    final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }
}
