@testable import CloudKit
import CloudSim
import Foundation
import Kernel
import SyncContract
import SyncLabTesting
import Testing

/// Foundation on Linux hangs reading an empty preferences file, so the swap removes one first;
/// the swap itself stays in memory: a device's values never reach that file.
@Suite(.serialized) struct DeviceDefaultsTests {
    @Test func anEmptyPreferencesFileIsRemovedAndAWrittenOneIsKept() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("device-defaults-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("kCFPreferencesCurrentApplication.plist")
        let written = folder.appendingPathComponent("written.plist")
        try Data().write(to: empty)
        try Data("<plist/>".utf8).write(to: written)
        #expect(DeviceDefaults.removeIfEmpty(empty))
        #expect(!FileManager.default.fileExists(atPath: empty.path))
        #expect(!DeviceDefaults.removeIfEmpty(written))
        #expect(FileManager.default.fileExists(atPath: written.path))
        #expect(!DeviceDefaults.removeIfEmpty(empty))
    }

    @Test func aDevicesValuesNeverReachThePreferencesFile() throws {
        let world = try SimulatedWorld(devices: [("phone", "alice"), ("laptop", "alice")])
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let key = "deviceDefaultsTests.secret"
        let own = UserDefaults.standard.string(forKey: key)
        @Sendable func fileText() -> String {
            (try? String(contentsOf: DeviceDefaults.file, encoding: .utf8)) ?? ""
        }
        let before = fileText()
        try phone.run { UserDefaults.standard.set("phone-secret", forKey: key) }
        #expect(fileText() == before, "the swap writes nothing")
        // An app that writes the file itself (`synchronize()`): the process's values follow.
        try phone.run { _ = UserDefaults.standard.synchronize() }
        #expect(!fileText().contains("phone-secret"))
        #expect(UserDefaults.standard.string(forKey: key) == own)
        try phone.kill()
        try phone.launch()
        #expect(try phone.run { UserDefaults.standard.string(forKey: key) } == "phone-secret")
        #expect(try laptop.run { UserDefaults.standard.string(forKey: key) } == nil)
    }

    /// A scenario's world leaves the last device's values and folders in place between its
    /// events; another device's code gets its own, and the world's end gives the process back.
    @Test func aHeldDeviceKeepsItsValuesUntilAnotherRunsOrItsWorldEnds() throws {
        let key = "deviceDefaultsTests.held"
        let own = UserDefaults.standard.string(forKey: key)
        let containers = AppContainers()
        func runtime(_ device: String) -> DeviceRuntime {
            let conditions = DeviceConditions(now: SimTime(microseconds: 0), device: device,
                account: "alice", accountStatus: .available, isOnline: true, isDiskFull: false)
            let runtime = DeviceRuntime(conditions: conditions,
                container: containers.container(of: device), names: Xoshiro256StarStar(seed: 1))
            runtime.holdsPlaces = true
            return runtime
        }
        let (phone, laptop) = (runtime("phone"), runtime("laptop"))
        var seen: [String?] = []
        let read = { seen.append(UserDefaults.standard.string(forKey: key)) }
        phone.run { UserDefaults.standard.set("phone", forKey: key) }
        phone.run(read)
        laptop.run(read)
        phone.run(read)
        StandardDirectories.release(laptop.container)
        StandardDirectories.release(phone.container)
        // Other suites' devices may run meanwhile: the process's own value is read last.
        phone.run(read)
        StandardDirectories.release(phone.container)
        #expect(seen == ["phone", nil, "phone", "phone"])
        #expect(UserDefaults.standard.string(forKey: key) == own)
        containers.removeAll()
    }

    @Test func registeredDefaultsAreNotADevicesOwnValues() throws {
        let world = try SimulatedWorld(devices: [("phone", "alice"), ("laptop", "alice")])
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let (registered, kept) = ("deviceDefaultsTests.registered", "deviceDefaultsTests.kept")
        try phone.run {
            UserDefaults.standard.register(defaults: [registered: 1])
            UserDefaults.standard.set(2, forKey: kept)
        }
        #expect(try laptop.run { UserDefaults.standard.object(forKey: kept) == nil })
        #expect(try laptop.run { UserDefaults.standard.integer(forKey: registered) } == 1)
        #expect(try phone.run { UserDefaults.standard.integer(forKey: kept) } == 2)
        try phone.reinstall()
        #expect(try phone.run { UserDefaults.standard.object(forKey: kept) == nil })
    }
}
