import CloudKit
import CloudSim
import Foundation
import Harness
import Kernel
import SyncContract

/// A simulated world for a test to hold: accounts, devices whose app owns its sync engine
/// (written on Apple's CloudKit), and one simulated iCloud, all in simulated time.
///
/// Build the app's objects on a device with `device.run { … }`, call their methods and their
/// engine's `sendChanges()`/`fetchChanges()` the same way, and check their data between
/// steps. Any statement of the scenario format acts on the world (`perform("cloud: throttle
/// 30s")`, `perform("phone: offline")`, `perform("settle")`). The same seed gives the same
/// run, byte for byte (`traceJSONLines`).
public final class SimulatedWorld {
    let session: WorldSession
    let containers: AppContainers
    /// The devices, in the order they were declared.
    public private(set) var devices: [SimulatedDevice] = []

    /// A failure of the simulation: a runtime error of the run, or a statement that is not
    /// valid scenario text.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// - Parameters:
    ///   - accounts: accounts to declare besides those the devices are signed in to.
    ///   - devices: each device's name and the account it is signed in to (nil: signed out).
    ///   - setup: more setup lines of the scenario format (`cloud latency 200ms`, …).
    public init(
        seed: UInt64 = 1, accounts: [String] = ["alice"], devices: [(name: String,
            account: String?)],
        setup: [String] = []
    ) throws {
        let containers = AppContainers()
        var lines = ["scenario \"a test's world\"", "engine cloudkit", "seed \(seed)"]
        var declared: [String] = []
        for account in accounts + devices.compactMap(\.account) where !declared.contains(account) {
            declared.append(account)
        }
        lines += declared.map { "account \($0)" }
        lines += devices.map { device in device.account.map { "device \(device.name) on \($0)" }
            ?? "device \(device.name)" }
        lines += setup
        let options =
            RunOptions(engines: EngineRegistry([EngineProfile.appOwned(containers: containers)]))
        do {
            session = try WorldSession(setup: lines.joined(separator: "\n"), options: options)
        } catch {
            throw Failure(description: error.description)
        }
        self.containers = containers
        self.devices = devices.map { SimulatedDevice(name: $0.name) }
        for device in self.devices { device.world = self }
    }

    deinit {
        containers.removeAll()
    }

    /// The device of this name.
    public func device(_ name: String) -> SimulatedDevice {
        guard let device = devices.first(where: { $0.name == name }) else {
            preconditionFailure(
                "SyncLab: no device named '\(name)'; the world has \(devices.map(\.name))")
        }
        return device
    }

    /// Runs one statement of the scenario format now (a device action, a cloud fault, a wait,
    /// `settle`, an expectation); throws when it is not valid, fails, or an expectation fails.
    public func perform(_ statement: String) throws {
        let results: [ExpectationResult]
        do {
            results = try session.perform(statement)
        } catch {
            throw Failure(description: error.description)
        }
        try checkFailure()
        if let failed = results.first(where: { !$0.passed }) {
            throw Failure(
                description: "expectation failed: \(failed.wanted); found: \(failed.found)")
        }
    }

    /// Lets `duration` of simulated time pass.
    public func advance(by duration: Duration) throws {
        session.advance(by: Self.simulated(duration))
        try checkFailure()
    }

    /// Runs until no device has anything in flight (the `settle` statement).
    public func settle() throws {
        try perform("settle")
    }

    /// The simulated time now.
    public var now: Duration { .microseconds(session.now.microseconds) }

    /// The run's trace so far, one JSON event a line.
    public var traceJSONLines: String { session.trace.jsonLines() }

    /// The records the cloud holds in a zone of an account, in name order.
    public func cloudRecords(zoneName: String, account: String) -> [CKRecord] {
        session.cloud.records(in: ZoneID(owner: account, name: zoneName))
            .sorted { $0.recordName.utf8.lexicographicallyPrecedes($1.recordName.utf8) }
            .map { CKRecord.simulated($0, account: account) }
    }

    /// A duration as simulated time, to the microsecond.
    static func simulated(_ duration: Duration) -> SimTime {
        let (seconds, attoseconds) = duration.components
        return SimTime(microseconds: seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }

    func checkFailure() throws {
        if let failure = session.failure { throw Failure(description: failure.description) }
    }
}
