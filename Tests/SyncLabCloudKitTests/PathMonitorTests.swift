import CloudKit
import Foundation
import Network
import SyncLabTesting
import Testing

/// `NWPathMonitor` on a simulated device: the path at the start, then each time the scenario
/// takes the device offline or online and the monitor's path changes, on the device, in
/// simulated time.
@Suite struct PathMonitorTests {
    final class Log: @unchecked Sendable {
        var lines: [String] = []
        var monitors: [NWPathMonitor] = []
    }

    static var here: String {
        guard let runtime = DeviceRuntime.current else { return "off device" }
        return "\(runtime.device) at \(runtime.now.microseconds / 1000) ms"
    }

    static func start(_ monitor: NWPathMonitor, named name: String, log: Log) {
        monitor.pathUpdateHandler = { path in
            log.lines.append("\(name) \(path.status) wifi \(path.usesInterfaceType(.wifi)) "
                + "on \(Self.here)")
        }
        monitor.start(queue: DispatchQueue(label: "app.network"))
        log.monitors.append(monitor)
    }

    @Test func aMonitorHearsTheDeviceGoOfflineAndOnline() throws {
        let world = try SimulatedWorld(seed: 6, devices: [("phone", "alice"), ("laptop", "alice")])
        let log = Log()
        try world.device("phone").run {
            Self.start(NWPathMonitor(), named: "any", log: log)
            Self.start(NWPathMonitor(requiredInterfaceType: .cellular), named: "cellular",
                       log: log)
            log.lines.append("started, current \(log.monitors[0].currentPath.status)")
        }
        try world.advance(by: .milliseconds(100))
        try world.perform("phone: offline")
        try world.perform("laptop: offline")
        try world.advance(by: .milliseconds(100))
        try world.perform("phone: online")
        try world.device("phone").run { log.monitors[1].cancel() }
        try world.perform("phone: offline")
        #expect(log.lines == [
            "started, current satisfied",
            "any satisfied wifi true on phone at 0 ms",
            "cellular unsatisfied wifi false on phone at 0 ms",
            "any unsatisfied wifi false on phone at 100 ms",
            "any satisfied wifi true on phone at 200 ms",
            "any unsatisfied wifi false on phone at 200 ms",
        ])
    }

    @Test func aKilledAppsMonitorIsGoneAndAnOfflineLaunchStartsUnsatisfied() throws {
        let world = try SimulatedWorld(seed: 6, devices: [("phone", "alice")])
        let phone = world.device("phone")
        let log = Log()
        try phone.run { Self.start(NWPathMonitor(), named: "first", log: log) }
        try phone.kill()
        try world.perform("phone: offline")
        try phone.launch()
        try phone.run { Self.start(NWPathMonitor(), named: "second", log: log) }
        try world.perform("phone: online")
        #expect(log.lines == [
            "first satisfied wifi true on phone at 0 ms",
            "second unsatisfied wifi false on phone at 0 ms",
            "second satisfied wifi true on phone at 0 ms",
        ])
    }
}
