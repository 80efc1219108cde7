#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Makes `UserDefaults.standard` hold the running device's own values, so an app that keeps
/// its engine's state serialization there (a common choice) gets one per simulated device.
///
/// The application's domain is swapped while a device's code runs: its values are loaded from
/// the device's container at the start and kept there at the end, and the test process's own
/// values are put back when no device runs (held, as `StandardDirectories` says, in a
/// scenario's world). The swap is made key by key in Foundation's memory
/// (`set`, `removeObject`), which never writes the domain's file: `setPersistentDomain` would
/// write it and wait for the disk at every swap. The callers hold the process lock of
/// `StandardDirectories`, so two worlds on two threads never swap at once.
enum DeviceDefaults {
    /// Foundation's name for the persistent domain that `UserDefaults.standard` writes.
    private static let domain = "kCFPreferencesCurrentApplication"
    /// The containers whose code runs, innermost last, and the process's own values.
    nonisolated(unsafe) private static var running: [AppContainer] = []
    nonisolated(unsafe) private static var outside: [String: Any] = [:]
    /// The domain's file as it was when the first device's code started (its size and date).
    nonisolated(unsafe) private static var fileBefore: [Int]?
    /// The container whose values stay in the domain while no device's code runs (`hold`).
    nonisolated(unsafe) private static var held: AppContainer?

    /// Foundation's file of the domain (`$XDG_CONFIG_HOME`, else `~/.config`).
    static let file = StandardDirectories.userConfig.appendingPathComponent(domain + ".plist")

    /// Foundation on Linux waits, at every read, for an empty file of the domain to be written
    /// (a process killed while writing it leaves it so); removed before the first swap.
    private static let cleared: Bool = removeIfEmpty(file)

    static func enter(_ container: AppContainer) {
        _ = cleared
        // Its values are in place already (an engine's event, then each run in it; or held).
        if let last = running.last ?? held, last === container {
            held = nil
            return running.append(container)
        }
        let defaults = UserDefaults.standard
        let current = values(of: defaults)
        if let previous = running.last ?? held { previous.defaults = current } else {
            outside = current
            fileBefore = fileAttributes()
        }
        held = nil
        running.append(container)
        replace(current, with: container.defaults, in: defaults)
    }

    /// Ends a device's code; with `hold`, the outermost keeps its values in the domain until
    /// another device's code runs or `release` (unless the app wrote the domain's file).
    static func leave(hold: Bool = false) {
        let defaults = UserDefaults.standard
        let container = running.removeLast()
        if let outer = running.last, outer === container { return }
        if hold, running.isEmpty, fileBefore == fileAttributes() { return held = container }
        let current = values(of: defaults)
        container.defaults = current
        replace(current, with: running.last?.defaults ?? outside, in: defaults)
        guard running.isEmpty else { return }
        restoreFile()
    }

    /// Puts the process's values back if `container`'s are held (its world is done).
    static func release(_ container: AppContainer) {
        guard running.isEmpty, let held, held === container else { return }
        let defaults = UserDefaults.standard
        let current = values(of: defaults)
        container.defaults = current
        replace(current, with: outside, in: defaults)
        Self.held = nil
        restoreFile()
    }

    private static func restoreFile() {
        outside = [:]
        // The app's own `synchronize()` wrote a device's values: the file gets the process's.
        if fileBefore != fileAttributes() { UserDefaults.standard.synchronize() }
        fileBefore = nil
    }

    /// An empty domain of SyncLab's: what it shows is the process's registered defaults.
    nonisolated(unsafe) private static let probe = UserDefaults(suiteName: "SyncLab.registered")

    /// The domain's values. `persistentDomain(forName:)` makes a `UserDefaults` at every call
    /// (costly); the standard one's values are the same when nothing is registered.
    private static func values(of defaults: UserDefaults) -> [String: Any] {
        let shown = defaults.dictionaryRepresentation()
        guard shown.isEmpty || probe?.dictionaryRepresentation().isEmpty == true else {
            return defaults.persistentDomain(forName: domain) ?? [:]
        }
        return shown
    }

    /// Makes the domain hold `values` (it holds `current`), one key at a time.
    private static func replace(_ current: [String: Any], with values: [String: Any],
                                in defaults: UserDefaults) {
        for key in current.keys.sorted() where values[key] == nil {
            defaults.removeObject(forKey: key)
        }
        for key in values.keys.sorted() { defaults.set(values[key], forKey: key) }
    }

    /// The file's size and modification time, nil when it does not exist (`stat`: Foundation's
    /// `attributesOfItem` costs as much as the rest of a swap).
    private static func fileAttributes() -> [Int]? {
        var info = stat()
        guard stat(filePath, &info) == 0 else { return nil }
        return [Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
    }

    private static let filePath = file.path

    /// Removes `file` when it exists and is empty; returns whether it did.
    static func removeIfEmpty(_ file: URL) -> Bool {
        let manager = FileManager.default
        guard let size = (try? manager.attributesOfItem(atPath: file.path))?[.size] as? NSNumber,
              size.int64Value == 0
        else { return false }
        return (try? manager.removeItem(at: file)) != nil
    }
}
