/// What `NWPathMonitor` needs of the simulated device whose code runs now: whether it is
/// online, the monitors it tells of changes, and a way to run the handler as its task.
package protocol DeviceNetwork: AnyObject {
    var isOnline: Bool { get }
    func watch(_ monitor: NWPathMonitor)
    func unwatch(_ monitor: NWPathMonitor)
    func schedule(_ action: @escaping @Sendable () -> Void)
}

/// The device whose code runs on the calling thread; nil off a device. SyncLab's CloudKit
/// facade sets it before it runs a device's code.
package enum DeviceNetworks {
    nonisolated(unsafe) package static var current: @Sendable () -> (any DeviceNetwork)? = {
        nil
    }
}
