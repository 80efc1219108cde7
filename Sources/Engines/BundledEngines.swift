import History
import Mirror
import Naive
import Outbox
import SDS
import SyncContract

extension EngineRegistry {
    /// Every engine SyncLab ships, one line each; `engine NAME` and `--engine NAME` choose
    /// among them. A new engine is its own target, its docs, and one line here.
    public static let bundled = EngineRegistry([
        SDSProfile.profile,
        NaiveProfile.profile,
        NaiveProfile.literal,
        OutboxProfile.profile,
        HistoryProfile.profile,
        MirrorProfile.profile,
    ])
}
