import Combine
import Foundation

extension DeviceRuntime {
    /// The device whose code runs now, as Combine's schedulers read it: its simulated time,
    /// and its executor for what they schedule (`Task.sleep` there waits in simulated time).
    @Sendable static func combineClock() -> DeviceClock? {
        guard let runtime = current else { return nil }
        let executor = runtime.executor
        return DeviceClock(elapsed: .microseconds(runtime.now.microseconds), date: runtime.date,
            startTask: { body in _ = Task(executorPreference: executor) { await body() } })
    }
}
