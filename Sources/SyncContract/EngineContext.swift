import CloudSim
import Kernel
import LocalStore

/// What an engine sees of its device while it handles an event: the clock, the network, the
/// account, and working copies of the disk (the store and the engine's own sync data).
///
/// The copies start as the disk holds them when the event arrives. Changing them changes
/// nothing on disk: only a `.write` effect does (see `DiskWrite`).
public struct EngineContext<SyncData: EngineSyncData> {
    public var now: SimTime
    public var device: String
    /// The account the device is signed into, and its status as the system reports it.
    public var account: String?
    public var accountStatus: AccountStatus
    public var isOnline: Bool
    /// The disk has no room, so the sync data cannot be rewritten.
    public var isDiskFull: Bool
    /// The store, as the disk holds it (plus what the engine changed during this event).
    public var store: Store
    /// The engine's sync data, as the disk holds it (plus this event's changes).
    public var syncData: SyncData
    /// The device's generator for random record names (kept by the device, not the engine,
    /// so a relaunch never repeats a name).
    public var names: Xoshiro256StarStar

    public init(
        now: SimTime,
        device: String,
        account: String?,
        accountStatus: AccountStatus,
        isOnline: Bool,
        isDiskFull: Bool = false,
        store: Store,
        syncData: SyncData,
        names: Xoshiro256StarStar
    ) {
        self.now = now
        self.device = device
        self.account = account
        self.accountStatus = accountStatus
        self.isOnline = isOnline
        self.isDiskFull = isDiskFull
        self.store = store
        self.syncData = syncData
        self.names = names
    }

    /// A write of the whole working state (store and sync data together, atomically).
    public var writeAll: EngineEffect {
        .write(DiskWrite(store: store, syncData: SyncDataBox(syncData)))
    }

    /// A random record name in the UUID form CloudKit gives unnamed records, drawn from the
    /// device's seeded generator.
    public mutating func makeRandomRecordName() -> String {
        let high = names.next()
        let low = names.next()
        let hex = Self.hex(high, digits: 16) + Self.hex(low, digits: 16)
        let characters = Array(hex.uppercased())
        func slice(_ from: Int, _ to: Int) -> String { String(characters[from..<to]) }
        return [slice(0, 8), slice(8, 12), slice(12, 16), slice(16, 20), slice(20, 32)]
            .joined(separator: "-")
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// The state of the device an engine runs on, apart from the disk, for an event.
public struct DeviceConditions: Hashable, Sendable {
    public var now: SimTime
    public var device: String
    public var account: String?
    public var accountStatus: AccountStatus
    public var isOnline: Bool
    public var isDiskFull: Bool

    public init(
        now: SimTime, device: String, account: String?, accountStatus: AccountStatus,
        isOnline: Bool, isDiskFull: Bool
    ) {
        self.now = now
        self.device = device
        self.account = account
        self.accountStatus = accountStatus
        self.isOnline = isOnline
        self.isDiskFull = isDiskFull
    }
}
