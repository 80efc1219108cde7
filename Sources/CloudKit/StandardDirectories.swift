#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Makes `FileManager.default.urls(for:in:)` and `temporaryDirectory` name the app container
/// of the device whose code runs, so an app that finds its files the usual way gets its own
/// on each simulated device.
///
/// Foundation on Linux derives those directories from XDG variables (Documents once per
/// process, the others on every call). They are set once to paths under one symbolic link,
/// and the link is pointed at the running device's container for the length of its code
/// (`enter`/`leave`), at a neutral folder otherwise. A process lock keeps two worlds on two
/// threads from pointing it at once.
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
        point(at: outside)
        atexit { try? FileManager.default.removeItem(at: StandardDirectories.processRoot) }
        let documents = link.appendingPathComponent("Documents", isDirectory: true)
        let dirs = "XDG_DOCUMENTS_DIR=\(documents.path)\n"
        try? Data(dirs.utf8).write(to: config.appendingPathComponent("user-dirs.dirs"))
        setenv("XDG_CONFIG_HOME", config.path, 1)
        setenv("XDG_DATA_HOME", link.appendingPathComponent("Library/Application Support").path, 1)
        setenv("XDG_CACHE_HOME", link.appendingPathComponent("Library/Caches").path, 1)
        setenv("TMPDIR", link.appendingPathComponent("tmp").path + "/", 1)
        let found = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first
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
        let previous = try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)
        point(at: container.root)
        return .success(previous)
    }

    /// Points the directories back where they were before `enter`.
    static func leave(restoring previous: String?) {
        point(at: previous.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? outside)
        lock.unlock()
    }

    struct Failure: Error {
        var reason: String
    }

    /// Replaces the link in one step, so no reader ever finds it missing.
    private static func point(at target: URL) {
        let staged = processRoot.appendingPathComponent("device.next").path
        unlink(staged)
        symlink(target.path, staged)
        rename(staged, link.path)
    }
}
