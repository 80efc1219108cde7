import Foundation

/// `DispatchQueue.main.async { … }` and `asyncAfter(deadline:)` as older CloudKit code calls
/// them from a completion handler: from a device's code, the block runs on that device, after
/// the code running now and in the order the calls were made (a serial queue's order; a
/// concurrent queue's blocks too run one at a time), and a deadline is a delay in simulated
/// time, taken to the millisecond as `Task.sleep`'s is. Dispatch itself would run the block on
/// another thread at a moment no seed orders. Outside a device's code these are Dispatch's.
extension DispatchQueue {
    public func async(execute work: @escaping @Sendable @convention(block) () -> Void) {
        guard let runtime = DeviceRuntime.current else {
            return async(group: nil, qos: .unspecified, flags: [], execute: work)
        }
        _ = Task(executorPreference: runtime.executor) { work() }
    }

    public func asyncAfter(
        deadline: DispatchTime, execute work: @escaping @Sendable @convention(block) () -> Void
    ) {
        guard let runtime = DeviceRuntime.current else {
            return asyncAfter(deadline: deadline, qos: .unspecified, flags: [], execute: work)
        }
        // What is left of the deadline, read off the same clock it was built from.
        let now = DispatchTime.now().uptimeNanoseconds
        let left = deadline.uptimeNanoseconds > now ? deadline.uptimeNanoseconds - now : 0
        _ = Task(executorPreference: runtime.executor) {
            try? await Task.sleep(nanoseconds: left)
            work()
        }
    }
}
