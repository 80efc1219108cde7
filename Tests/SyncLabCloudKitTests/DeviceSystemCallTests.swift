import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// A device's code reads the wall clock and the system's random bytes from the simulation:
/// `Date()` is its simulated time and `UUID()` and `Int.random` come from its seeded stream,
/// so an app that stamps, names or jitters with them repeats with the seed.
@Suite struct DeviceSystemCallTests {
    struct Drawn: Equatable {
        let date: Date
        let uuid: String
        let number: Int
        let recordName: String
    }

    static func draw(seed: UInt64, relaunch: Bool = false) throws -> [Drawn] {
        let world = try SimulatedWorld(seed: seed, devices: [("phone", "alice"),
                                                             ("laptop", "alice")])
        let zone = CKRecordZone.ID(zoneName: "Notes")
        func one(_ device: SimulatedDevice) throws -> Drawn {
            try device.run {
                Drawn(date: Date(), uuid: UUID().uuidString, number: Int.random(in: 0..<1_000_000),
                      recordName: CKRecord.ID(zoneID: zone).recordName)
            }
        }
        let phone = world.device("phone")
        var drawn = [try one(phone), try one(world.device("laptop"))]
        try world.advance(by: .milliseconds(1500))
        if relaunch {
            try phone.kill()
            try phone.launch()
        }
        drawn.append(try one(phone))
        return drawn
    }

    @Test func dateIsTheDevicesSimulatedTime() throws {
        let drawn = try Self.draw(seed: 1)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(drawn[0].date == start)
        #expect(drawn[2].date == start.addingTimeInterval(1.5))
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice")])
        #expect(try world.device("phone").run { Date.now.timeIntervalSince1970 }
            == 1_700_000_000)
        #expect(Date().timeIntervalSince1970 > 1_750_000_000, "off a device: the machine's")
    }

    @Test func uuidsAndRandomNumbersRepeatWithTheSeed() throws {
        let first = try Self.draw(seed: 7)
        #expect(try Self.draw(seed: 7) == first)
        let other = try Self.draw(seed: 8)
        #expect(other.map(\.uuid) != first.map(\.uuid))
        #expect(Set(first.map(\.uuid)).count == 3, "each draw is new")
        #expect(first[0].uuid != first[1].uuid, "each device has its own stream")
        #expect(UUID(uuidString: first[0].uuid) != nil)
    }

    @Test func aRelaunchGoesOnWithTheStreamInsteadOfRepeatingIt() throws {
        let drawn = try Self.draw(seed: 3, relaunch: true)
        #expect(drawn[2].recordName != drawn[0].recordName)
        #expect(drawn[2].uuid != drawn[0].uuid)
        #expect(try Self.draw(seed: 3, relaunch: true) == drawn)
    }
}

/// A device's monotonic clocks read its simulated uptime, so elapsed-time decisions and
/// deadlines computed from them agree with the simulated waits.
@Suite struct DeviceMonotonicClockTests {
    @Test func continuousClockAndDispatchTimeAdvanceWithSimulatedTime() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice")])
        let phone = world.device("phone")
        let start = try phone.run { (ContinuousClock.now, DispatchTime.now().uptimeNanoseconds) }
        try world.advance(by: .milliseconds(1500))
        let later = try phone.run { (ContinuousClock.now, DispatchTime.now().uptimeNanoseconds) }
        #expect(start.0.duration(to: later.0) == .milliseconds(1500))
        #expect(later.1 - start.1 == 1_500_000_000)
        #expect(start.1 == 86_400 * 1_000_000_000, "a day of uptime at time zero")
    }

    @Test func aDeadlineOnTheContinuousClockWakesAtItsSimulatedInstant() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice")])
        let phone = world.device("phone")
        let waited = try phone.run { () -> Duration in
            let clock = ContinuousClock()
            let start = clock.now
            try await Task.sleep(until: start + .seconds(2), clock: clock)
            return start.duration(to: clock.now)
        }
        #expect(waited == .seconds(2))
        #expect(world.now == .seconds(2))
    }
}
