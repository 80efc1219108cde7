import Kernel

/// Counts how often one device starts a synchronization at one simulated instant.
///
/// A synchronization takes requests, and requests take latency; with latency 0 ms a device
/// can still run a few synchronizations at one instant (a debounce, a push, a retry, a
/// scripted `sync`, each a handful at most). Bundled scenarios never start more than a few
/// dozen at one instant; a thousand means the engine starts a new one the instant the last
/// ends, forever, which the event budget would stop only after millions of
/// events and gigabytes of trace.
struct LivenessGuard {
    /// Far above any legitimate count, low enough to stop a loop within milliseconds.
    static let defaultLimit = 1_000

    let limit: Int
    private(set) var instant = SimTime(microseconds: -1)
    private(set) var startsAtInstant = 0

    init(limit: Int) {
        precondition(limit > 0, "a liveness limit must be positive")
        self.limit = limit
    }

    /// Notes a start at `time`; false once `limit` starts happened at that one instant.
    mutating func noteStart(at time: SimTime) -> Bool {
        if time != instant {
            instant = time
            startsAtInstant = 0
        }
        startsAtInstant += 1
        return startsAtInstant < limit
    }

    /// Whether `count` more starts at `time` would all be accepted (`noteStart`).
    func hasRoom(for count: Int, at time: SimTime) -> Bool {
        (time == instant ? startsAtInstant : 0) + count < limit
    }
}
