import CloudSim
import Kernel
import Scenario
import SyncContract

/// A world driven step by step from code instead of a timeline: a test holds it, runs
/// statements of the scenario format one at a time (device actions, cloud faults, waits,
/// expectations), calls into a device's engine, and reads the cloud between steps.
///
/// The setup (accounts, devices, cloud settings, the engine) is scenario text; each step is
/// one timeline statement, checked against that setup as a file's would be, with its errors
/// placed at `FILE:LINE:COLUMN`.
public final class WorldSession {
    let world: World
    private let setup: String
    private let file: String
    private let validation: ValidationOptions
    private var results: [ExpectationResult] = []

    /// A bad setup or statement: the checker's diagnostics.
    public struct InputError: Error, CustomStringConvertible {
        public let diagnostics: [Diagnostic]
        public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
    }

    /// Builds the world of `setup` (which must declare the devices and name the engine) and
    /// launches its devices at time 0.
    public init(setup: String, file: String = "world", options: RunOptions) throws(InputError) {
        self.setup = setup
        self.file = file
        validation = options.validationOptions
        let parsed = ScenarioChecker.check(source: setup, file: file, options: validation)
        let errors = parsed.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else { throw InputError(diagnostics: errors) }
        guard options.profile(for: parsed.scenario) != nil else {
            throw InputError(diagnostics: [])
        }
        world = World(scenario: parsed.scenario,
            seed: options.seed ?? parsed.scenario.header.effectiveSeed,
                      options: options)
        world.start()
        world.run(until: .zero)
    }

    public var now: SimTime { world.now }
    public var failure: RuntimeFailure? { world.failure }
    public var trace: Trace { world.trace }
    public var cloud: CloudService { world.cloud }
    /// Every expectation run so far, in order.
    public var expectations: [ExpectationResult] { results }

    /// Runs one statement of the scenario format; returns the expectations it checked.
    @discardableResult
    public func perform(_ statement: String) throws(InputError) -> [ExpectationResult] {
        let source = setup + "\n" + statement + "\n"
        let parsed = ScenarioChecker.check(source: source, file: file, options: validation)
        let errors = parsed.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty,
            let last = parsed.scenario.timeline.last else { throw InputError(diagnostics: errors) }
        let before = results.count
        world.run(last, results: &results, text: statement)
        return Array(results[before...])
    }

    /// The engine a device runs now (nil while its app is not running).
    public func engine(ofDevice name: String) -> (any SyncEngine)? {
        world.index(ofDevice: name).flatMap { world.devices[$0].engine }
    }

    /// Carries out effects a device's engine made outside an event (code a test ran on it).
    public func carryOut(_ effects: [EngineEffect], device name: String) {
        guard let index = world.index(ofDevice: name), !effects.isEmpty else { return }
        world.perform(effects, device: index, incarnation: world.incarnations[index])
    }

    /// Runs the world's events while `condition` holds, at most an hour of simulated time;
    /// false when the run failed (a budget, the bound, a runtime error).
    @discardableResult
    public func run(while condition: () -> Bool, what: String) -> Bool {
        world.run(while: condition, bound: World.waitBound, what: what, passesInLine: false)
        return world.failure == nil
    }

    /// Runs the world's events for `duration` of simulated time.
    @discardableResult
    public func advance(by duration: SimTime) -> Bool {
        world.run(until: world.now.adding(duration))
    }

    /// Ends the run with a runtime error (a test's own).
    public func fail(_ message: String) {
        world.fail(message)
    }
}
