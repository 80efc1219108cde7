import CloudKit
import Foundation
import Harness
import Kernel

/// One device of a `SimulatedWorld`: run the app's code on it, reach its files, and act on it
/// as a scenario would (kill, launch, offline, account changes, …).
public final class SimulatedDevice {
    public let name: String
    weak var world: SimulatedWorld!

    init(name: String) {
        self.name = name
    }

    /// Runs `body` as the app's code on this device and lets simulated time pass until it
    /// returns (every device goes on meanwhile); rethrows its error. Everything the code
    /// starts (tasks, actors, the main actor, `Task.sleep`, CloudKit calls) runs on the
    /// device, in an order fixed by the code and the seed. Fails when the run fails, the
    /// device's app is not running, or the code has not returned within an hour of
    /// simulated time.
    @discardableResult
    public func run<Value: Sendable>(_ body: @escaping @Sendable () async throws
        -> Value) throws -> Value {
        guard let engine = world.session.engine(ofDevice: name) as? AppEngine,
              let runtime = engine.runtime else {
            throw SimulatedWorld.Failure(
                description: "'\(name)': the app is not running; launch it first")
        }
        let call = { @Sendable () async -> Result<Value, any Error> in
            do { return .success(try await body()) } catch { return .failure(error) }
        }
        guard let box = engine.call(at: world.session.now, call) else {
            try world.checkFailure()
            throw SimulatedWorld.Failure(
                description: "'\(name)': the app stopped at a runtime error")
        }
        world.session.carryOut(engine.takeEffects(), device: name)
        world.session.run(
            while: { box.value == nil && runtime.isRunning && runtime.failure == nil },
            what: "'\(name)': the app's code returning (code that waits for something the "
                + "simulation does not drive, such as a Thread, a DispatchQueue, an "
                + "OperationQueue or a continuation resumed outside the app's tasks, never "
                + "returns)")
        try world.checkFailure()
        guard let result = box.value else {
            throw SimulatedWorld.Failure(
                description: "'\(name)': the app was killed before the code returned")
        }
        return try result.get()
    }

    /// The device's app container (its files survive a kill, not a reinstall).
    public var container: AppContainer { world.containers.container(of: name) }

    /// The container's directory for one of Apple's standard places.
    public func url(for directory: FileManager.SearchPathDirectory) -> URL {
        container.url(for: directory)
    }

    /// Ends the app's process: its tasks stop where they are; its files stay.
    public func kill() throws { try world.perform("\(name): kill") }

    /// Starts the app again (build its objects again with `run`).
    public func launch() throws { try world.perform("\(name): launch") }

    /// Deletes the app and installs it again: the process ends and its files are gone.
    public func reinstall() throws {
        try kill()
        container.erase()
        try launch()
    }

    public func goOffline() throws { try world.perform("\(name): offline") }
    public func goOnline() throws { try world.perform("\(name): online") }
    public func signOut() throws { try world.perform("\(name): sign-out") }
    public func signIn(_ account: String) throws {
        try world.perform("\(name): sign-in \(account)")
    }
}
