import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// Blocks an app's code hands to `DispatchQueue` run on its device, in simulated time.
@Suite struct DispatchQueueOnDeviceTests {
    final class Log: @unchecked Sendable {
        var lines: [String] = []
    }

    static var here: String {
        guard let runtime = DeviceRuntime.current else { return "off device" }
        return "\(runtime.device) at \(runtime.now.microseconds / 1000) ms"
    }

    @Test func blocksRunOnTheirDeviceInOrderAndDelaysInSimulatedTime() throws {
        let world = try SimulatedWorld(seed: 2, devices: [("phone", "alice")])
        let log = Log()
        let queue = DispatchQueue(label: "app.serial")
        try world.device("phone").run {
            DispatchQueue.main.asyncAfter(deadline: .now() + 2.5) {
                log.lines.append("later on \(Self.here)")
            }
            DispatchQueue.main.async { log.lines.append("main on \(Self.here)") }
            queue.async { log.lines.append("serial on \(Self.here)") }
            DispatchQueue.global(qos: .userInitiated).async {
                log.lines.append("global on \(Self.here)")
            }
            log.lines.append("caller on \(Self.here)")
        }
        #expect(log.lines == ["caller on phone at 0 ms", "main on phone at 0 ms",
            "serial on phone at 0 ms", "global on phone at 0 ms"])
        try world.advance(by: .seconds(3))
        #expect(log.lines.last == "later on phone at 2500 ms")
    }

    @Test func aCompletionHandlerThatHopsToTheMainQueueStaysOnItsDevice() throws {
        let world = try SimulatedWorld(seed: 2, devices: [("phone", "alice")])
        let log = Log()
        try world.device("phone").run {
            CKContainer.default().accountStatus { status, _ in
                DispatchQueue.main.async {
                    log.lines.append("status \(status.rawValue) on \(Self.here)")
                }
            }
        }
        try world.settle()
        #expect(log.lines.count == 1)
        #expect(log.lines.first?.hasPrefix("status 1 on phone") == true)
    }
}
