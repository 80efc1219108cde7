import Device
import LocalStore
import Scenario
import SyncContract

/// A deliberately broken engine variant that the explorer must catch as a new finding and
/// shrink to a handful of steps: the proof that a clean sweep means something.
///
/// Selectable only from tests (`ExploreOptions.canary` is internal).
enum ExplorerCanary: Hashable, Sendable {
    /// The engine's own canary mechanism, switched on (`EngineProfile.canaryMechanism`; sds:
    /// pending changes are lost at every launch, as if they were kept in memory).
    case brokenMechanism
    /// The engines of `device` (nil: every device) leave `entity.key` out of
    /// synchronization (they neither upload nor apply it), as an engine would that forgot a
    /// key when building records. Built on a narrowed schema; the engine is unchanged.
    case unsynchronizedKey(device: String?, entity: String, key: String)

    /// Switches the engine's mechanisms for a run of the scenario.
    func configure(_ options: inout RunOptions, scenario: ScenarioFile) {
        guard case .brokenMechanism = self else { return }
        guard let mechanism = options.profile(for: scenario)?.canaryMechanism else {
            preconditionFailure(
                "engine '\(options.engineName(for: scenario))' has no canary mechanism")
        }
        options.mechanisms[mechanism] = true
    }

    /// Swaps the broken devices for ones whose engine sees the narrowed schema. Runs right
    /// after the world is made, before anything launched.
    func install(in world: World, pageSize: Int, options: RunOptions) {
        guard case .unsynchronizedKey(let target, let entity, let key) = self else { return }
        let schema = Self.narrowed(world.schema, entity: entity, key: key)
        for (index, device) in world.devices.enumerated() {
            let broken = target == nil || target == device.name
            // An extension shares its app's disk: it follows the app's replacement.
            let host = device.host.flatMap { host in world.devices.first { $0.name == host.name } }
            guard broken || host != nil else { continue }
            let replacement = Device(
                name: device.name, schema: broken ? schema : device.schema,
                account: device.host == nil ? device.account : nil,
                names: world.streams.stream("names/\(device.name)"), profile: world.profile,
                pageSize: pageSize,
                mechanisms: options.mechanisms, host: host)
            replacement.latency = device.latency
            replacement.isTracing = device.isTracing
            replacement.syncSelection = device.syncSelection
            world.devices[index] = replacement
        }
    }

    /// The schema with `entity.key` left out of synchronization.
    private static func narrowed(_ schema: Schema, entity: String, key: String) -> Schema {
        var copy = schema
        for (index, description) in copy.entities.enumerated() where description.name == entity {
            switch description.sync {
            case .all: copy.entities[index].sync = .except([key])
            case .except(let names): copy.entities[index].sync = .except(names + [key])
            case .only(let names): copy.entities[index].sync = .only(names.filter { $0 != key })
            case .none: break
            }
        }
        return copy
    }
}
