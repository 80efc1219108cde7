/// `DEVICE: ACTION [&]`, on the timeline or in a trigger.
public struct DeviceActionStatement: Hashable, Sendable {
    public var device: Located<String>
    public var action: DeviceAction
    /// `&`: the script does not wait for the action (only on actions that wait).
    public var runsInBackground: Bool
    /// Where the device name starts.
    public var location: SourceLocation

    public init(
        device: Located<String>,
        action: DeviceAction,
        runsInBackground: Bool = false,
        location: SourceLocation
    ) {
        self.device = device
        self.action = action
        self.runsInBackground = runsInBackground
        self.location = location
    }
}

/// The permission a share grants an invited account.
public enum SharePermission: String, Hashable, Sendable, CaseIterable {
    case readWrite = "read-write"
    case readOnly = "read-only"
}

/// Who may join a share by its URL alone (`CKShare.publicPermission`): `share f1 public
/// read-only`. A SyncLab addition.
public enum PublicPermissionSetting: String, Hashable, Sendable, CaseIterable {
    case none
    case readOnly = "read-only"
    case readWrite = "read-write"
}

/// What a device does; see the contract's table of device actions.
public enum DeviceAction: Hashable, Sendable {
    /// `insert Note n1 title="A"`: insert, bind the label, save.
    case insert(entity: Located<String>, label: Located<String>, values: [Assignment])
    /// `update n1 title="B"`: change values and save.
    case update(label: Located<String>, values: [Assignment])
    /// `delete n1`: delete through the context and save.
    case delete(label: Located<String>)
    /// `begin`: group this device's following actions into one transaction.
    case begin
    /// `save`: save the open transaction.
    case save
    /// `rollback`: discard the open transaction (DEL-1).
    case rollback
    /// `batch-delete Note [where k=v]`: delete in the store directly (DEL-2).
    case batchDelete(entity: Located<String>, filter: [Assignment])
    /// `sync`: Sync Now (`forceDownload()`); the script waits.
    case sync
    /// `autosync on` / `autosync off`.
    case autosync(Bool)
    case offline
    case online
    /// `kill`: force-quit; in-memory state is lost.
    case kill
    /// `launch`: start the app again; the script waits for its synchronization.
    case launch
    /// `stop` (LIFE-1).
    case stop
    /// `start`: the script waits for the synchronization it starts.
    case start
    /// `reset-sync-data [then delete-all]` (LIFE-2, LIFE-5).
    case resetSyncData(thenDeleteAll: Bool)
    /// `initialize-schema` (SCHEMA-3).
    case initializeSchema
    case signOut
    case signIn(account: Located<String>)
    case accountUnavailable
    /// `account-status restricted` (a SyncLab addition): the account stays, with that status.
    case accountStatus(Located<AccountStatusSetting>)
    case accountAvailable
    case loseStore
    case rebuildStore
    /// `disk-full` (true) / `disk-ok` (false): whether the device's disk has room; a reset
    /// cannot forget the sync data on a full disk (LIFE-6). A SyncLab addition.
    case diskFull(Bool)
    /// `observe off` (false) / `observe on` (true): whether the synchronizer observes the
    /// store; saves made while it does not are found by ADOPT-1. A SyncLab addition.
    case observe(Bool)
    /// `upgrade syncs …|all [identity ENTITY(a, …)]`: the app is updated to a version that
    /// synchronizes other models or keys, or declares identities; it restarts (the script
    /// waits for its launch). A SyncLab addition.
    case upgrade(AppVersion)
    /// `share f1 with bob read-write [administrator]` (`administrator`: a SyncLab addition).
    case share(
        label: Located<String>, account: Located<String>, permission: SharePermission,
        administrator: Bool = false)
    /// `share f1 public read-only|read-write|none`: the share's public permission. A SyncLab
    /// addition.
    case sharePublic(label: Located<String>, permission: Located<PublicPermissionSetting>)
    /// `accept share f1`.
    case acceptShare(label: Located<String>)
    /// `unshare f1`.
    case unshare(label: Located<String>)
    /// `remove bob from f1`.
    case removeParticipant(account: Located<String>, label: Located<String>)
    /// `leave share f1`.
    case leaveShare(label: Located<String>)

    /// Whether the script waits for the action to finish, so `&` may follow it.
    public var waits: Bool {
        switch self {
        case .sync, .launch, .start, .resetSyncData, .initializeSchema, .upgrade: return true
        default: return false
        }
    }
}
