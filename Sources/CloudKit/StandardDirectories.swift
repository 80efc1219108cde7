#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Makes `FileManager.default.urls(for:in: .userDomainMask)` name the Documents, Application
/// Support and Caches folders of the device whose code runs, so an app that keeps its files
/// there gets its own on each simulated device.
///
/// Foundation on Linux reads the Documents folder once per process, from the XDG user-dirs
/// file: SyncLab points that file at a path under one symbolic link for that one read (the
/// variable is restored at once, so child processes inherit nothing), and the link is pointed
/// at the running device's container for the length of its code (`enter`/`leave`), at a
/// neutral folder otherwise (a scenario's world holds it at its last device until another
/// device's code runs or the world ends: no code of the process's own runs meanwhile).
/// Application Support and Caches are read from `XDG_DATA_HOME` and `XDG_CACHE_HOME` on
/// every call: they name the link only while a device's code runs (or is held) and
/// the folders Foundation would use anyway otherwise (values are only ever replaced, never
/// added or removed, so a reader on another thread always finds a valid string). A process
/// lock keeps two worlds on two threads from pointing them at once. `temporaryDirectory`
/// stays the process's: other threads of a test process write there while devices run.
enum StandardDirectories {
    private static let lock = NSRecursiveLock()

    /// The process's folder: containers, the link, the neutral folder and the XDG settings.
    static let processRoot: URL = FileManager.default.temporaryDirectory
        .appendingPathComponent("synclab-\(getpid())", isDirectory: true)

    private static var link: URL { processRoot.appendingPathComponent("device", isDirectory: true) }
    private static var outside: URL {
        processRoot.appendingPathComponent("outside", isDirectory: true)
    }

    /// Nil once the variables point at the link; otherwise why the devices cannot have
    /// their own directories.
    static let setUp: String? = {
        let config = processRoot.appendingPathComponent("xdg-config", isDirectory: true)
        for directory in [config, outside] {
            try? FileManager.default.createDirectory(at: directory,
                withIntermediateDirectories: true)
        }
        _ = AppContainer(root: outside)
        point(at: outsidePath)
        for variable in redirected { setenv(variable.name, variable.outside, 1) }
        atexit { try? FileManager.default.removeItem(at: StandardDirectories.processRoot) }
        let documents = link.appendingPathComponent("Documents", isDirectory: true)
        let dirs = "XDG_DOCUMENTS_DIR=\(documents.path)\n"
        try? Data(dirs.utf8).write(to: config.appendingPathComponent("user-dirs.dirs"))
        let original = getenv("XDG_CONFIG_HOME").map { String(cString: $0) }
        setenv("XDG_CONFIG_HOME", config.path, 1)
        let found = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first
        if let original { setenv("XDG_CONFIG_HOME", original, 1) } else {
            unsetenv("XDG_CONFIG_HOME")
        }
        guard found?.standardizedFileURL.path == documents.standardizedFileURL.path else {
            return "FileManager.default.urls(for: .documentDirectory, in:) was read before the "
                + "first simulated device ran (Foundation reads it once per process), so the "
                + "devices would share it; make the world first, or pass the app "
                + "device.url(for: .documentDirectory)"
        }
        return nil
    }()

    /// Points the directories at `container` while its device's code runs; returns what to
    /// restore, or the reason they cannot be pointed.
    static func enter(_ container: AppContainer) -> Result<String?, Failure> {
        if let reason = setUp { return .failure(Failure(reason: reason)) }
        lock.lock()
        // Outside any device's code their place is the neutral folder, held or not.
        let previous = depth == 0 ? nil : pointed
        point(at: container.rootPath)
        depth += 1
        if depth == 1, !held { setVariables(inside: true) }
        held = false
        return .success(previous)
    }

    /// Points the directories back where they were before `enter`; with `hold`, the outermost
    /// leaves them at the device's container until another device's code runs or `release`.
    static func leave(restoring previous: String?, hold: Bool = false) {
        if hold, depth == 1 { held = true } else { point(at: previous ?? outsidePath) }
        depth -= 1
        if depth == 0, !held { setVariables(inside: false) }
        lock.unlock()
    }

    /// Points the directories and `UserDefaults.standard` back at the process's own if they
    /// are held at `container` (its world is done).
    static func release(_ container: AppContainer) {
        lock.lock()
        defer { lock.unlock() }
        DeviceDefaults.release(container)
        guard depth == 0, held, pointed == container.rootPath else { return }
        point(at: outsidePath)
        setVariables(inside: false)
        held = false
    }

    private static func setVariables(inside: Bool) {
        for variable in redirected {
            setenv(variable.name, inside ? variable.inside : variable.outside, 1)
        }
    }

    /// The user's configuration folder, where Foundation keeps `UserDefaults.standard`'s file:
    /// `XDG_CONFIG_HOME`, else `~/.config`.
    static var userConfig: URL {
        if let value = getenv("XDG_CONFIG_HOME"), value.pointee != 0 {
            return URL(fileURLWithPath: String(cString: value), isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".config", isDirectory: true)
    }

    /// How many devices' code is running, nested, on the thread that holds the lock.
    nonisolated(unsafe) private static var depth = 0
    /// Whether they point at a device's container while no device's code runs (`hold`).
    nonisolated(unsafe) private static var held = false

    /// The variables Foundation reads on every call: the link's folder while a device's code
    /// runs, outside it the folder Foundation names without SyncLab.
    private static let redirected: [(name: String, inside: String, outside: String)] = {
        let fileManager = FileManager.default
        let places: [(String, FileManager.SearchPathDirectory, String)] = [
            ("XDG_DATA_HOME", .applicationSupportDirectory, "Library/Application Support"),
            ("XDG_CACHE_HOME", .cachesDirectory, "Library/Caches"),
        ]
        return places.map { name, directory, inContainer in
            let outside = fileManager.urls(for: directory, in: .userDomainMask)[0]
            let inside = link.appendingPathComponent(inContainer, isDirectory: true)
            return (name, inside.path, outside.path)
        }
    }()

    struct Failure: Error {
        var reason: String
    }

    /// Where the link points now (only this type points it); nil before the first time.
    nonisolated(unsafe) private static var pointed: String?
    private static let outsidePath = outside.path
    private static let linkPath = link.path
    private static let stagedPath = processRoot.appendingPathComponent("device.next").path

    /// Replaces the link in one step, so no reader ever finds it missing; nothing to do when
    /// it already points at `target`.
    private static func point(at target: String) {
        guard target != pointed else { return }
        unlink(stagedPath)
        symlink(target, stagedPath)
        rename(stagedPath, linkPath)
        pointed = target
    }
}
