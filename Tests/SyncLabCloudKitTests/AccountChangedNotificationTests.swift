import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// `.CKAccountChanged` reaches the observers of the device whose account changed, on that
/// device, once per change; every device runs in one process, and the others hear nothing.
@Suite struct AccountChangedNotificationTests {
    static let container = CKContainer(identifier: "iCloud.test.account")

    /// What the observers saw: the device each ran on, and the status it read then.
    final class Log: @unchecked Sendable {
        var lines: [String] = []
        var tokens: [any NSObjectProtocol] = []
    }

    /// The app's side, as on Apple platforms: observe the change, then ask for the status.
    static func observe(_ name: String, into log: Log, queue: OperationQueue? = nil) {
        log.tokens.append(NotificationCenter.default.addObserver(forName: .CKAccountChanged,
            object: nil, queue: queue) { _ in
            log.lines.append("\(name) on \(DeviceRuntime.current?.device ?? "no device")")
            Task {
                let status = try? await Self.container.accountStatus()
                log.lines.append("\(name) status \(status.map { "\($0.rawValue)" } ?? "-")")
            }
        })
    }

    @Test func aSwitchNotifiesOnlyThatDeviceOnceThenTheStatusIsNew() throws {
        let world = try SimulatedWorld(seed: 5, accounts: ["alice", "bob", "carol"],
            devices: [("phone", "alice"), ("laptop", "alice")])
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let log = Log()
        try phone.run { Self.observe("phone", into: log) }
        try laptop.run { Self.observe("laptop", into: log) }
        try world.settle()
        #expect(log.lines.isEmpty)
        try phone.signOut()
        try world.settle()
        #expect(log.lines == ["phone on phone", "phone status 3"])
        log.lines = []
        try phone.signIn("bob")
        try world.settle()
        #expect(log.lines == ["phone on phone", "phone status 1"])
        #expect(try phone.run { try await Self.container.accountStatus() } == .available)
        #expect(try laptop.run { try await Self.container.userRecordID().recordName }
            != (try phone.run { try await Self.container.userRecordID().recordName }))
    }

    /// An observer given a queue runs as a task of its device after the post; a removed one,
    /// and one of a killed launch, hear nothing more.
    @Test func queuedRemovedAndKilledObservers() throws {
        let world = try SimulatedWorld(seed: 5, accounts: ["alice", "bob", "carol"],
            devices: [("phone", "alice"), ("laptop", "alice")])
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let log = Log()
        try phone.run { Self.observe("phone", into: log, queue: .main) }
        try laptop.run { Self.observe("laptop", into: log) }
        try laptop.signIn("bob")
        try world.settle()
        #expect(log.lines == ["laptop on laptop", "laptop status 1"])
        log.lines = []
        try phone.signIn("carol")
        try world.settle()
        #expect(log.lines == ["phone on phone", "phone status 1"])
        log.lines = []
        try phone.run { NotificationCenter.default.removeObserver(log.tokens[0]) }
        try phone.signOut()
        try laptop.kill()
        try laptop.launch()
        try laptop.signOut()
        try world.settle()
        #expect(log.lines.isEmpty)
    }

    /// The app's own notification, posted on one device, reaches that device's observers
    /// only: one without a queue inside the post, one with a queue after it returns.
    @Test func anAppsOwnPostStaysOnItsDevice() throws {
        let world = try SimulatedWorld(seed: 5, devices: [("phone", "alice"), ("laptop", "alice")])
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let log = Log()
        let name = Notification.Name("NotesChanged")
        for device in [phone, laptop] {
            let label = device.name
            try device.run {
                let center = NotificationCenter.default
                log.tokens.append(center.addObserver(forName: name, object: nil,
                    queue: .main) { _ in log.lines.append("\(label) queued") })
                log.tokens.append(center.addObserver(forName: name, object: nil,
                    queue: nil) { _ in log.lines.append("\(label) inline") })
            }
        }
        try phone.run {
            NotificationCenter.default.post(name: name, object: nil)
            log.lines.append("posted")
        }
        #expect(log.lines == ["phone inline", "posted", "phone queued"])
    }

    /// A delegate that does nothing: the engine is what an observer's block holds.
    final class Idle: CKSyncEngineDelegate, @unchecked Sendable {
        func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {}

        func nextRecordZoneChangeBatch(
            _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
        ) async -> CKSyncEngine.RecordZoneChangeBatch? { nil }
    }

    /// An observer whose block holds the app's sync engine (which holds the device's runtime)
    /// does not keep the runtime once the world is gone.
    @Test func anObserverHoldingTheEngineDoesNotKeepTheRuntime() throws {
        weak var runtime: DeviceRuntime?
        do {
            let world = try SimulatedWorld(seed: 5, devices: [("phone", "alice")])
            let delegate = Idle()
            runtime = try world.device("phone").run {
                let engine = CKSyncEngine(CKSyncEngine.Configuration(
                    database: Self.container.privateCloudDatabase, stateSerialization: nil,
                    delegate: delegate))
                _ = NotificationCenter.default.addObserver(forName: .CKAccountChanged,
                    object: nil, queue: nil) { _ in _ = engine }
                return DeviceRuntime.current
            }
            #expect(runtime != nil)
        }
        #expect(runtime == nil, "the observer's block kept the device's runtime")
    }
}
