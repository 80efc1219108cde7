import SyncContract

/// The waiting actions of a run: the ones still running, on which device and for which line
/// and action, and the ones that ended (done, failed, or their app killed).
struct WaiterBook {
    /// The line and name of a waiting action, for failures and leftovers.
    typealias Action = (line: Int, name: String)

    private var completed: Set<UInt64> = []
    private var last: UInt64 = 0
    /// Which device each running action runs on.
    private var devices: [UInt64: Int] = [:]
    private var actions: [UInt64: Action] = [:]

    /// A new waiting action of `device`, made by the statement at `line`.
    mutating func make(device: Int, line: Int, action: String) -> WaiterID {
        last += 1
        devices[last] = device
        actions[last] = (line, action)
        return WaiterID(last)
    }

    func isCompleted(_ waiter: WaiterID) -> Bool {
        completed.contains(waiter.rawValue)
    }

    /// Ends a waiting action; returns its line and name if it was still running.
    @discardableResult
    mutating func complete(_ waiter: UInt64) -> Action? {
        completed.insert(waiter)
        devices[waiter] = nil
        return actions.removeValue(forKey: waiter)
    }

    /// Ends every action running on the device (a killed app finishes nothing), in the order
    /// they were made.
    mutating func completeAll(of device: Int) {
        for waiter in devices.keys.sorted() where devices[waiter] == device {
            complete(waiter)
        }
    }

    /// The actions still running, in the order they were made, with their device.
    var running: [(device: Int, action: Action)] {
        devices.keys.sorted().compactMap { waiter in
            guard let device = devices[waiter], let action = actions[waiter] else { return nil }
            return (device, action)
        }
    }
}
