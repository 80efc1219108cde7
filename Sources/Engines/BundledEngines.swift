import History
import Mirror
import Naive
import Outbox
import SDS
import SyncContract

extension EngineRegistry {
    /// Every engine SyncLab ships, one line each; `engine NAME` and `--engine NAME` choose
    /// among them. A new engine is its own target, its docs, and one line here. Each profile
    /// is a stored one, built when a command first asks for that engine.
    public static let bundled: EngineRegistry = {
        var registry = EngineRegistry()
        registry.register(named: SDSEngine.name) { SDSProfile.profile }
        registry.register(named: NaiveEngine.name) { NaiveProfile.profile }
        registry.register(named: NaiveProfile.literalName) { NaiveProfile.literal }
        registry.register(named: OutboxEngine.name) { OutboxProfile.profile }
        registry.register(named: HistoryEngine.name) { HistoryProfile.profile }
        registry.register(named: MirrorEngine.name) { MirrorProfile.profile }
        return registry
    }()
}
