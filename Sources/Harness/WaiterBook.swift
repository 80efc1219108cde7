import SyncContract

/// The waiting actions of a run: the ones still running, on which device and for which line
/// and action, and the ones that ended (done, failed, or their app killed).
///
/// Waiters are numbered 1, 2, 3… in the order they are made, so each has a slot in a list at
/// its number: no hashed container keyed by `UInt64`, whose first use in a process costs a
/// scan of every protocol conformance of the binary.
struct WaiterBook {
    /// The line and name of a waiting action, for failures and leftovers.
    typealias Action = (line: Int, name: String)

    /// What became of a waiter made here.
    private enum State {
        case running(device: Int, action: Action)
        case completed
    }

    /// The state of waiter `n` at `n - 1`.
    private var states: [State] = []
    /// Waiters completed that were never made here (none, unless an engine invents one).
    private var strangers: [UInt64] = []

    /// A new waiting action of `device`, made by the statement at `line`.
    mutating func make(device: Int, line: Int, action: String) -> WaiterID {
        states.append(.running(device: device, action: (line, action)))
        return WaiterID(UInt64(states.count))
    }

    func isCompleted(_ waiter: WaiterID) -> Bool {
        guard let slot = slot(of: waiter.rawValue) else {
            return strangers.contains(waiter.rawValue)
        }
        if case .completed = states[slot] { return true }
        return false
    }

    /// Ends a waiting action; returns its line and name if it was still running.
    @discardableResult
    mutating func complete(_ waiter: UInt64) -> Action? {
        guard let slot = slot(of: waiter) else {
            if !strangers.contains(waiter) { strangers.append(waiter) }
            return nil
        }
        guard case .running(_, let action) = states[slot] else { return nil }
        states[slot] = .completed
        return action
    }

    /// Ends every action running on the device (a killed app finishes nothing), in the order
    /// they were made.
    mutating func completeAll(of device: Int) {
        for slot in states.indices {
            if case .running(device, _) = states[slot] { states[slot] = .completed }
        }
    }

    /// The actions still running, in the order they were made, with their device.
    var running: [(device: Int, action: Action)] {
        states.compactMap { state in
            guard case .running(let device, let action) = state else { return nil }
            return (device, action)
        }
    }

    /// The slot of a waiter made here, nil for any other number.
    private func slot(of waiter: UInt64) -> Int? {
        waiter >= 1 && waiter <= UInt64(states.count) ? Int(waiter) - 1 : nil
    }
}
