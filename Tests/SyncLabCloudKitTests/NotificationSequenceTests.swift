import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// `NotificationCenter.default.notifications(named:)` in a device's code: the loop reads that
/// device's notifications only, every one, in posting order, and ends with the launch.
@Suite struct NotificationSequenceTests {
    static let container = CKContainer(identifier: "iCloud.test.sequence")
    static let notesChanged = Notification.Name("NotesChanged")

    /// What the loops read: the device each ran on, and the notification's name.
    final class Log: @unchecked Sendable {
        var lines: [String] = []
        var kept: NotificationCenter.Notifications?
    }

    /// Starts a loop on the device that logs each notification of `name`, and returns.
    static func listen(on device: SimulatedDevice, to name: Notification.Name, log: Log,
        pause: Duration? = nil) throws {
        let label = device.name
        try device.run {
            let changes = NotificationCenter.default.notifications(named: name)
            Task {
                for await notification in changes {
                    let here = DeviceRuntime.current?.device ?? "no device"
                    log.lines.append("\(label) read \(notification.name.rawValue) on \(here)")
                    if let pause { try? await Task.sleep(for: pause) }
                }
                log.lines.append("\(label) loop ended")
            }
        }
    }

    @Test func aLoopSeesItsOwnAccountChangeOnly() throws {
        let world = try SimulatedWorld(seed: 7, accounts: ["alice", "bob"],
            devices: [("phone", "alice"), ("laptop", "alice")])
        let log = Log()
        try Self.listen(on: world.device("phone"), to: .CKAccountChanged, log: log)
        try Self.listen(on: world.device("laptop"), to: .CKAccountChanged, log: log)
        try world.settle()
        #expect(log.lines.isEmpty)
        try world.device("phone").signIn("bob")
        try world.settle()
        #expect(log.lines == ["phone read CKAccountChanged on phone"])
        try world.device("laptop").signOut()
        try world.settle()
        #expect(log.lines == ["phone read CKAccountChanged on phone",
            "laptop read CKAccountChanged on laptop"])
    }

    /// Two posts back to back, and one while the loop sleeps: none is lost, in order.
    @Test func backToBackPostsAllArriveInOrder() throws {
        let world = try SimulatedWorld(seed: 7, devices: [("phone", "alice")])
        let phone = world.device("phone")
        let log = Log()
        try Self.listen(on: phone, to: Self.notesChanged, log: log, pause: .seconds(5))
        try phone.run {
            NotificationCenter.default.post(name: Self.notesChanged, object: nil)
            NotificationCenter.default.post(name: Self.notesChanged, object: nil)
            log.lines.append("posted twice")
        }
        try world.advance(by: .seconds(2))
        try phone.run { NotificationCenter.default.post(name: Self.notesChanged, object: nil) }
        try world.settle()
        #expect(log.lines == ["posted twice", "phone read NotesChanged on phone",
            "phone read NotesChanged on phone", "phone read NotesChanged on phone"])
    }

    /// Notifications posted between making the sequence and reading it are kept.
    @Test func notificationsBeforeTheFirstReadAreKept() throws {
        let world = try SimulatedWorld(seed: 7, devices: [("phone", "alice")])
        let phone = world.device("phone")
        let log = Log()
        let read = try phone.run {
            let changes = NotificationCenter.default.notifications(named: Self.notesChanged)
            NotificationCenter.default.post(name: Self.notesChanged, object: nil)
            NotificationCenter.default.post(name: .CKAccountChanged, object: nil)
            NotificationCenter.default.post(name: Self.notesChanged, object: nil)
            var count = 0
            for await _ in changes {
                count += 1
                if count == 2 { break }
            }
            return count
        }
        #expect(read == 2)
        #expect(log.lines.isEmpty)
    }

    /// A kill drops the waiting loop with the process (it logs nothing more, not even its
    /// end); a sequence made in the killed launch and read by the next one ends at once.
    @Test func theSequenceEndsWithItsLaunch() throws {
        let world = try SimulatedWorld(seed: 7, accounts: ["alice", "bob"],
            devices: [("phone", "alice")])
        let phone = world.device("phone")
        let log = Log()
        try Self.listen(on: phone, to: .CKAccountChanged, log: log)
        try phone.run {
            log.kept = NotificationCenter.default.notifications(named: .CKAccountChanged)
        }
        try phone.kill()
        try phone.launch()
        try phone.signIn("bob")
        try world.settle()
        #expect(log.lines.isEmpty)
        let ended = try phone.run {
            guard let kept = log.kept else { return false }
            for await _ in kept { return false }
            return true
        }
        #expect(ended)
    }

    /// A cancelled task's loop ends; the device goes on.
    @Test func aCancelledLoopEnds() throws {
        let world = try SimulatedWorld(seed: 7, devices: [("phone", "alice")])
        let phone = world.device("phone")
        let log = Log()
        try phone.run {
            let task = Task {
                for await _ in NotificationCenter.default.notifications(
                    named: Self.notesChanged) {
                    log.lines.append("read")
                }
                log.lines.append("ended")
            }
            await Task.yield()
            task.cancel()
            await task.value
        }
        #expect(log.lines == ["ended"])
    }

    @Test func theSameSeedGivesTheSameTrace() throws {
        func traced() throws -> (String, [String]) {
            let world = try SimulatedWorld(seed: 11, accounts: ["alice", "bob"],
                devices: [("phone", "alice"), ("laptop", "alice")])
            let log = Log()
            for name in ["phone", "laptop"] {
                try Self.listen(on: world.device(name), to: .CKAccountChanged, log: log,
                    pause: .milliseconds(300))
            }
            try world.device("phone").signIn("bob")
            try world.device("laptop").signOut()
            try world.device("phone").signOut()
            try world.settle()
            return (world.traceJSONLines, log.lines)
        }
        let (first, second) = (try traced(), try traced())
        #expect(first.0 == second.0)
        #expect(first.1 == second.1)
        #expect(first.1.count == 3)
    }

    /// Outside a device's code the sequence observes the center itself.
    @Test func outsideADeviceItIsTheCentersOwn() async {
        let center = NotificationCenter()
        let changes = center.notifications(named: Self.notesChanged)
        center.post(name: Self.notesChanged, object: nil)
        center.post(name: Notification.Name("Other"), object: nil)
        center.post(name: Self.notesChanged, object: nil)
        var read = 0
        for await notification in changes {
            #expect(notification.name == Self.notesChanged)
            read += 1
            if read == 2 { break }
        }
        #expect(read == 2)
    }
}
