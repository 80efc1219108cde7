#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Makes `FileManager.default.urls(for: .documentDirectory, in:)` name the Documents folder of
/// the device whose code runs, so an app that keeps its files there gets its own on each
/// simulated device.
///
/// Foundation on Linux reads the Documents folder once per process, from the XDG user-dirs
/// file: SyncLab points that file at a path under one symbolic link for that one read (the
/// variable is restored at once, so child processes inherit nothing), and the link is pointed
/// at the running device's container for the length of its code (`enter`/`leave`), at a
/// neutral folder otherwise. A process lock keeps two worlds on two threads from pointing it
/// at once. The other directories are read from the environment on every call, which a child
/// process would inherit, so they stay the process's (`device.url(for:)` names the device's).
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
