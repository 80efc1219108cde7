import CloudSim
import Kernel
import LocalStore

/// Identifies one request an engine sent, so its answer finds its way back.
public struct RequestID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: RequestID, rhs: RequestID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "r\(rawValue)" }
}

/// The timers an engine can have scheduled; at most one of each kind at a time.
public enum EngineTimer: String, Hashable, Comparable, Sendable {
    /// SYNC-1: the short wait after a save before synchronizing.
    case debounce
    /// Waiting for a retry-after or a back-off before trying again.
    case retry
    /// ERR-4: the 30-minute pause of uploads while iCloud storage is full.
    case quotaPause
    /// SCHEMA-4 / ERR-7: records set aside for an hour.
    case rejectedRetry

    public static func < (lhs: EngineTimer, rhs: EngineTimer) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A script action that waits for the engine (`sync`, `launch`, `start`, …); the engine
/// reports it finished with `EngineEffect.completed`.
public struct WaiterID: Hashable, Sendable {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }
}

/// Something that happens to an engine; it handles one at a time.
public enum EngineEvent: Hashable, Sendable {
    /// The app launched and set the synchronizer up; `waiter` ends with the launch's sync.
    case launch(waiter: WaiterID?)
    /// The app saved the store (the engine reads the store's history for what changed).
    case storeSaved
    /// A silent push arrived.
    case push
    case timer(EngineTimer)
    case response(RequestID, CloudResponse)
    /// Resume after a probe point (the world lets triggers act there first).
    case resume
    /// `forceDownload()` / "Sync Now".
    case syncNow(waiter: WaiterID?)
    case stop
    case start(waiter: WaiterID?)
    case resetSyncData(deleteAll: Bool, waiter: WaiterID?)
    case initializeSchema(waiter: WaiterID?)
    /// The store vanished or was rebuilt under the app (HDO-3, DEL-3).
    case storeReplaced
    /// The synchronizer observes the store again (set up after saves it did not see, ADOPT-1).
    case observerAttached
    /// `CKAccountChanged`: the device's account or its status changed.
    case accountChanged
    case networkChanged(online: Bool)
}

/// What an engine asks the device and the kernel to do after handling an event.
public enum EngineEffect: Sendable {
    case send(RequestID, CloudRequest)
    case setTimer(EngineTimer, after: SimTime)
    case cancelTimer(EngineTimer)
    /// Pass a probe point: triggers run here, then the engine gets `.resume` at the same time.
    case probe(String)
    /// A decision or fact for the trace; `rules` are the rule IDs that decided it.
    case trace(kind: String, details: [TraceField], rules: [String])
    /// A waiting script action is done.
    case completed(WaiterID)
    /// A waiting script action ended without doing what it was asked (an
    /// `initializeSchema()` that failed); `reason` says why, for the trace and the leftovers.
    case failed(WaiterID, reason: String)
}

/// What an engine sees of its device while it handles an event.
public struct EngineContext {
    public var now: SimTime
    public var device: String
    /// The account the device is signed into, and its status as the system reports it.
    public var account: String?
    public var accountStatus: AccountStatus
    public var isOnline: Bool
    /// LIFE-6: the disk has no room, so the sync data cannot be rewritten.
    public var isDiskFull: Bool
    /// The store and the engine's own sync data: both on disk, they survive a kill.
    public var store: Store
    public var syncData: SDSSyncData
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
        syncData: SDSSyncData,
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

/// The state an engine shows the app (`expect DEVICE: state …`).
public struct EngineState: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var argument: String?

    public init(_ name: String, _ argument: String? = nil) {
        self.name = name
        self.argument = argument
    }

    public static let idle = EngineState("idle")
    public static let syncing = EngineState("syncing")
    public static let stopped = EngineState("stopped")
    public static let signedOut = EngineState("signed-out")
    public static let notRunning = EngineState("not-running")

    public var description: String {
        if let argument { return "\(name)(\(argument))" }
        return name
    }
}

/// A sync engine: a deterministic state machine that handles one event and returns effects.
///
/// It talks to the cloud only through requests the kernel delivers, and records every
/// decision a rule governs with the rule's ID.
public protocol SyncEngine: AnyObject {
    /// The engine's name as scenarios write it (`engine sds`).
    static var name: String { get }
    /// The probe points this engine passes, in the order a synchronization passes them.
    static var probePoints: [String] { get }

    func handle(_ event: EngineEvent, context: inout EngineContext) -> [EngineEffect]

    /// The state the app would show now.
    var state: EngineState { get }
    /// True when nothing is running or due except timers at least `horizon` away.
    func isIdle(now: SimTime) -> Bool
}
