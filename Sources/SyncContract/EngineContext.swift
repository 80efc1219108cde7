import CloudSim
import Kernel
import LocalStore

/// What an engine sees of its device while it handles an event: the clock, the network, the
/// account, and working copies of the disk (the store and the engine's own sync data).
///
/// The copies start as the disk holds them when the event arrives. Changing them changes
/// nothing on disk: only a `.write` effect does (see `DiskWrite`).
///
/// A stored property added here must also be deinitialized in `lendingDisk` (the core of
/// `handlingLentDisk`), which takes a context apart field by field.
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
    /// Whether the world keeps the run's trace (`DeviceConditions.isTracing`): when false,
    /// an engine may leave out the details of its trace effects (`appendTrace`).
    public var isTracing: Bool

    public init(
        now: SimTime,
        device: String,
        account: String?,
        accountStatus: AccountStatus,
        isOnline: Bool,
        isDiskFull: Bool = false,
        store: Store,
        syncData: SyncData,
        names: Xoshiro256StarStar,
        isTracing: Bool = true
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
        self.isTracing = isTracing
    }

    /// A context for one event on a device in `conditions`, over the store and sync data
    /// given (copies of the disk, or the disk itself when it is lent).
    @inlinable
    public init(
        conditions: DeviceConditions,
        store: consuming Store,
        syncData: consuming SyncData,
        names: Xoshiro256StarStar
    ) {
        let (device, account) = Self.copiedNames(of: conditions)
        self.init(
            now: conditions.now,
            device: device,
            account: account,
            accountStatus: conditions.accountStatus,
            isOnline: conditions.isOnline,
            isDiskFull: conditions.isDiskFull,
            store: consume store,
            syncData: consume syncData,
            names: names,
            isTracing: conditions.isTracing
        )
    }

    /// The device's and the account's names in `conditions`, copied.
    ///
    /// Not inlined on purpose: copied where the context is built, straight from the conditions'
    /// memory into the context's, the optional account goes through the generic witnesses of
    /// `Optional` on every event, and the device's name costs more too; returned from here they are
    /// copied as values, a retain each.
    @usableFromInline
    @inline(never)
    static func copiedNames(of conditions: DeviceConditions) -> (device: String, account: String?) {
        (conditions.device, conditions.account)
    }

    /// A write of the whole working state (store and sync data together, atomically).
    public var writeAll: EngineEffect {
        .write(DiskWrite(store: store, syncData: SyncDataBox(syncData)))
    }

    /// A random record name in the UUID form CloudKit gives unnamed records, drawn from the
    /// device's seeded generator.
    public mutating func makeRandomRecordName() -> String {
        Self.randomRecordName(drawingFrom: &names)
    }

    /// The name `makeRandomRecordName()` would draw from `names`: two outputs as 32 uppercase
    /// hexadecimal digits (the first output's 16, then the second's, each zero-padded), in
    /// groups of 8-4-4-4-12. For a reader that must know a name before the context draws it
    /// (the sds engine's page checkpoint), without copying the context.
    ///
    /// Written byte by byte into the string's storage: formatting through
    /// `String(_:radix:)`, `uppercased()`, an array of characters and `joined` would be paid
    /// for every record name an engine draws (docs/BENCH.md).
    public static func randomRecordName(drawingFrom names: inout Xoshiro256StarStar) -> String {
        let high = names.next()
        let low = names.next()
        return String(unsafeUninitializedCapacity: 36) { buffer in
            let digits: StaticString = "0123456789ABCDEF"
            var index = 0
            func put(_ value: UInt64, digits count: Int) {
                var shift = UInt64(count * 4)
                while shift > 0 {
                    shift -= 4
                    let nibble = Int((value >> shift) & 0xF)
                    buffer[index] = digits.utf8Start[nibble]
                    index += 1
                }
            }
            func dash() {
                buffer[index] = UInt8(ascii: "-")
                index += 1
            }
            put(high >> 32, digits: 8)
            dash()
            put(high >> 16, digits: 4)
            dash()
            put(high, digits: 4)
            dash()
            put(low >> 48, digits: 4)
            dash()
            put(low, digits: 12)
            return index
        }
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
    /// Whether the world keeps the run's trace. When false (an explorer's sweep, a
    /// benchmark), the world reads of a `.trace` effect only its kind and rules, and the
    /// first detail of a runtime error (`EngineEffect.runtimeErrorKind`): an engine may skip
    /// building the other details (`Array.appendTrace(detailed:kind:details:rules:)`).
    public var isTracing: Bool

    public init(
        now: SimTime, device: String, account: String?, accountStatus: AccountStatus,
        isOnline: Bool, isDiskFull: Bool, isTracing: Bool = true
    ) {
        self.now = now
        self.device = device
        self.account = account
        self.accountStatus = accountStatus
        self.isOnline = isOnline
        self.isDiskFull = isDiskFull
        self.isTracing = isTracing
    }
}
