import Kernel
import SyncContract

/// The timers one device's engine has armed, by kind (`World.timers`): a short list searched
/// in place.
///
/// A dictionary would hash the timer's name on every set, fire and cancel, and a device arms a few
/// timers at most; comparing the few names in place is cheaper, and they are mostly the engine's
/// same strings, equal at once. The list's order never shows: the world asks after one timer,
/// whether any is due, or (`cancellationOrder`) for all of them sorted by name.
struct ArmedTimers {
    private var entries: [(timer: EngineTimer, armed: ArmedTimer)] = []

    /// The timer of that kind, if armed; assigning nil disarms it.
    subscript(timer: EngineTimer) -> ArmedTimer? {
        get {
            guard let position = position(of: timer) else { return nil }
            return entries[position].armed
        }
        set {
            if let position = position(of: timer) {
                if let newValue {
                    entries[position].armed = newValue
                } else {
                    entries.remove(at: position)
                }
            } else if let newValue {
                entries.append((timer, newValue))
            }
        }
    }

    /// Disarms the timer of that kind; returns it, if it was armed.
    mutating func removeValue(forKey timer: EngineTimer) -> ArmedTimer? {
        guard let position = position(of: timer) else { return nil }
        return entries.remove(at: position).armed
    }

    /// Whether a timer is due before `horizon`, leaving out those armed for the wait bound or
    /// longer (`ArmedTimer.isLong`).
    func contains(dueBefore horizon: SimTime) -> Bool {
        entries.contains { !$0.armed.isLong && $0.armed.due < horizon }
    }

    /// The kernel events of every armed timer, in the order of the timers' names.
    var cancellationOrder: [EventID] {
        entries.sorted { $0.timer < $1.timer }.map(\.armed.event)
    }

    private func position(of timer: EngineTimer) -> Int? {
        entries.firstIndex { $0.timer == timer }
    }
}
