import Network

extension DeviceRuntime: DeviceNetwork {
    package var isOnline: Bool { conditions.isOnline }

    package func watch(_ monitor: NWPathMonitor) {
        pathMonitors.append(monitor)
    }

    package func unwatch(_ monitor: NWPathMonitor) {
        pathMonitors.removeAll { $0 === monitor }
    }

    package func schedule(_ action: @escaping @Sendable () -> Void) {
        _ = Task(executorPreference: executor) { action() }
    }

    /// The device went online or offline: every monitor started in this launch hears of it,
    /// in the order started.
    func pathChanged(online: Bool) {
        // No monitor, no drain: a sweep's network changes cost the app nothing then.
        guard !pathMonitors.isEmpty else { return }
        let monitors = pathMonitors
        run { for monitor in monitors { monitor.changed(online: online, on: self) } }
    }
}
