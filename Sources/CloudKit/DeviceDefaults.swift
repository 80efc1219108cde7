import Foundation

/// Makes `UserDefaults.standard` hold the running device's own values, so an app that keeps
/// its engine's state serialization there (a common choice) gets one per simulated device.
///
/// The application's persistent domain is swapped while a device's code runs: its values are
/// loaded from the device's container at the start and kept there at the end, and the test
/// process's own values are put back when no device runs. The callers hold the process lock
/// of `StandardDirectories`, so two worlds on two threads never swap at once.
enum DeviceDefaults {
    /// Foundation's name for the persistent domain that `UserDefaults.standard` writes.
    private static let domain = "kCFPreferencesCurrentApplication"
    /// The containers whose code runs, innermost last, and the process's own values.
    nonisolated(unsafe) private static var running: [AppContainer] = []
    nonisolated(unsafe) private static var outside: [String: Any] = [:]

    /// Foundation on Linux waits, at every read, for an empty file of the domain to be written
    /// (a process killed while writing it leaves it so); removed before the first swap.
    private static let cleared: Bool = removeIfEmpty(
        StandardDirectories.userConfig.appendingPathComponent(domain + ".plist"))

    static func enter(_ container: AppContainer) {
        _ = cleared
        let defaults = UserDefaults.standard
        let current = defaults.persistentDomain(forName: domain) ?? [:]
        if let previous = running.last { previous.defaults = current } else { outside = current }
        running.append(container)
        defaults.setPersistentDomain(container.defaults, forName: domain)
    }

    static func leave() {
        let defaults = UserDefaults.standard
        let container = running.removeLast()
        container.defaults = defaults.persistentDomain(forName: domain) ?? [:]
        defaults.setPersistentDomain(running.last?.defaults ?? outside, forName: domain)
        guard running.isEmpty else { return }
        outside = [:]
        // Foundation keeps the domain in a file of the user's: written now, it holds the
        // process's own values again, never a device's, for this process and the next.
        defaults.synchronize()
    }

    /// Removes `file` when it exists and is empty; returns whether it did.
    static func removeIfEmpty(_ file: URL) -> Bool {
        let manager = FileManager.default
        guard let size = (try? manager.attributesOfItem(atPath: file.path))?[.size] as? NSNumber,
              size.int64Value == 0
        else { return false }
        return (try? manager.removeItem(at: file)) != nil
    }
}
