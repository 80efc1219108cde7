import Foundation

/// Network's `NWPathMonitor`: tells the app when its device goes online or offline. Started
/// from a device's code, it belongs to that launch: its handler runs on the device, in
/// simulated time, once with the path at the start and again at each change (the queue is
/// accepted and not used, as a device's code runs on one executor). Elsewhere the path is
/// satisfied and the handler is called once on the queue.
public final class NWPathMonitor: @unchecked Sendable {
    // `@unchecked`: used by one device's code, on the simulation's thread.
    public var pathUpdateHandler: (@Sendable (NWPath) -> Void)?
    public private(set) var currentPath = NWPath(online: true)
    public private(set) var queue: DispatchQueue?
    public let requiredInterfaceType: NWInterface.InterfaceType?
    public let prohibitedInterfaceTypes: [NWInterface.InterfaceType]
    private weak var device: (any DeviceNetwork)?
    private var isCancelled = false
    private var hasReported = false

    public init() {
        requiredInterfaceType = nil
        prohibitedInterfaceTypes = []
    }

    public init(requiredInterfaceType: NWInterface.InterfaceType) {
        self.requiredInterfaceType = requiredInterfaceType
        prohibitedInterfaceTypes = []
    }

    public init(prohibitedInterfaceTypes: [NWInterface.InterfaceType]) {
        requiredInterfaceType = nil
        self.prohibitedInterfaceTypes = prohibitedInterfaceTypes
    }

    /// Starts watching; a second start does nothing, as Apple's does.
    public func start(queue: DispatchQueue) {
        guard self.queue == nil, !isCancelled else { return }
        self.queue = queue
        guard let device = DeviceNetworks.current() else {
            return queue.async { [self] in pathUpdateHandler?(currentPath) }
        }
        self.device = device
        device.watch(self)
        changed(online: device.isOnline, on: device)
    }

    public func cancel() {
        isCancelled = true
        device?.unwatch(self)
        device = nil
    }

    /// The device's network changed: the path and the handler follow, after the code that
    /// runs now (the handler hears the first path and then only a different one).
    package func changed(online: Bool, on device: any DeviceNetwork) {
        let path = path(online: online)
        guard !isCancelled, !hasReported || path != currentPath else { return }
        hasReported = true
        currentPath = path
        device.schedule { [self] in
            guard !isCancelled else { return }
            pathUpdateHandler?(path)
        }
    }

    /// The device's path as this monitor sees it: an interface it requires or prohibits
    /// decides whether the Wi-Fi of an online device counts.
    private func path(online: Bool) -> NWPath {
        let wifi = NWInterface.InterfaceType.wifi
        let allowed = (requiredInterfaceType.map { $0 == wifi } ?? true)
            && !prohibitedInterfaceTypes.contains(wifi)
        return NWPath(online: online && allowed)
    }
}
