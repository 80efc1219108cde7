import Device
import LocalStore

/// A deliberately broken engine variant that the explorer must catch as a new finding and
/// shrink to a handful of steps: the proof that a clean sweep means something.
///
/// Selectable only from tests (`ExploreOptions.canary` is internal). The variant available
/// without touching the engine: the devices' engines leave one attribute out of
/// synchronization (they neither upload nor apply it), as an engine would that forgot a key
/// when building records. docs/EXPLORER.md proposes the engine hook for a second canary
/// that forgets pending changes on kill.
struct ExplorerCanary: Hashable, Sendable {
    /// The device whose engine is broken; nil breaks every device.
    var device: String?
    var entity: String
    var key: String

    /// Swaps the broken devices for ones whose engine sees the narrowed schema. Runs right
    /// after the world is made, before anything launched.
    func install(in world: World, pageSize: Int) {
        let schema = narrowed(world.schema)
        for (index, device) in world.devices.enumerated() {
            guard self.device == nil || self.device == device.name else { continue }
            let replacement = Device(
                name: device.name, schema: schema, account: device.account,
                names: world.streams.stream("names/\(device.name)"),
                pageSize: pageSize)
            replacement.latency = device.latency
            world.devices[index] = replacement
        }
    }

    /// The schema with `entity.key` left out of synchronization.
    private func narrowed(_ schema: Schema) -> Schema {
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
