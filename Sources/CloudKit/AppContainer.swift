import CloudSim
import Foundation

/// A simulated device's app container: the directories an app writes its files in. Each
/// device of each world gets its own, under a folder of this process, so two devices never
/// share a file because their code names the same path. Files survive a kill and a relaunch
/// (the process ends, the disk stays); `erase()` (a reinstall) removes them.
public final class AppContainer: @unchecked Sendable {
    // `@unchecked`: used on the simulation's thread only.
    public let root: URL
    /// `root`'s path, for the link `StandardDirectories` points at it.
    let rootPath: String
    private var assetCount = 0
    /// The values of `UserDefaults.standard` on this device (`DeviceDefaults`): kept with the
    /// container, so they survive a kill and a reinstall erases them.
    var defaults: [String: Any] = [:]
    /// The subscriptions the device saved or fetched (KnownSubscriptions.swift): the
    /// server's, so a reinstall keeps them.
    var subscriptions: [KnownSubscription] = []
    /// What SyncLab's watch of the app's sync engines knows, per database: not the app's, but
    /// kept like its files, so a relaunched app is judged against what it was given before.
    private var weaknessWatches: [DatabaseScope: AppWeaknessWatch] = [:]

    init(root: URL) {
        self.root = root
        rootPath = root.path
        for directory in [documents, applicationSupport, caches, temporary] {
            try? FileManager.default.createDirectory(at: directory,
                withIntermediateDirectories: true)
        }
    }

    public var documents: URL { root.appendingPathComponent("Documents", isDirectory: true) }
    public var applicationSupport: URL { root.appendingPathComponent("Library/Application Support",
        isDirectory: true) }
    public var caches: URL { root.appendingPathComponent("Library/Caches", isDirectory: true) }
    public var temporary: URL { root.appendingPathComponent("tmp", isDirectory: true) }

    /// The container's directory for one of Apple's standard places (as
    /// `FileManager.default.urls(for:in: .userDomainMask)` gives on a device).
    public func url(for directory: FileManager.SearchPathDirectory) -> URL {
        switch directory {
        case .documentDirectory: return documents
        case .applicationSupportDirectory: return applicationSupport
        case .cachesDirectory: return caches
        default: return root.appendingPathComponent("Library", isDirectory: true)
        }
    }

    /// Removes every file (a reinstall), leaving the empty directories.
    public func erase() {
        defaults = [:]
        weaknessWatches = [:]
        try? FileManager.default.removeItem(at: root)
        for directory in [documents, applicationSupport, caches, temporary] {
            try? FileManager.default.createDirectory(at: directory,
                withIntermediateDirectories: true)
        }
    }

    /// The watch of the device's sync engines of one database.
    func weaknessWatch(of database: DatabaseScope) -> AppWeaknessWatch {
        if let watch = weaknessWatches[database] { return watch }
        let watch = AppWeaknessWatch()
        weaknessWatches[database] = watch
        return watch
    }

    /// Writes a downloaded asset's bytes to the caches directory.
    func writeAsset(_ bytes: [UInt8]) -> URL? {
        assetCount += 1
        let url = caches.appendingPathComponent("asset-\(assetCount)")
        return (try? Data(bytes).write(to: url)) == nil ? nil : url
    }
}

/// The containers of one world's devices, made on first use.
public final class AppContainers: @unchecked Sendable {
    // `@unchecked`: its table and count are behind `lock` (a profile's containers serve the
    // worlds of every job of a sweep); each container is used on its world's thread only.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var worlds = 0
    let base: URL
    private let lock = NSLock()
    private var containers: [String: AppContainer] = [:]

    public init() {
        let number = Self.lock.withLock { () -> Int in
            Self.worlds += 1
            return Self.worlds
        }
        base = StandardDirectories.processRoot
            .appendingPathComponent("world-\(number)", isDirectory: true)
    }

    public func container(of device: String) -> AppContainer {
        lock.withLock {
            if let container = containers[device] { return container }
            let container = AppContainer(
                root: base.appendingPathComponent(device, isDirectory: true))
            containers[device] = container
            return container
        }
    }

    /// A container no device has used yet, for a device that starts from an empty disk (a
    /// scenario's device: its disk holds the lease, and the files go with the last copy of
    /// the disk, so a long sweep does not keep every run's).
    public func freshContainer(for device: String) -> AppContainerLease {
        let number = lock.withLock { () -> Int in
            fresh += 1
            return fresh
        }
        return AppContainerLease(AppContainer(
            root: base.appendingPathComponent("\(device)-\(number)", isDirectory: true)))
    }

    private var fresh = 0

    /// Removes every device's files (the world is done).
    public func removeAll() {
        try? FileManager.default.removeItem(at: base)
    }
}

/// A container held by a device's disk rather than by name: the container's files are
/// removed once no copy of the disk holds it (the world that made it is gone).
public final class AppContainerLease: Hashable, @unchecked Sendable {
    // `@unchecked`: immutable; the container is used on its world's thread only.
    public let container: AppContainer

    init(_ container: AppContainer) {
        self.container = container
    }

    deinit {
        try? FileManager.default.removeItem(at: container.root)
    }

    public var name: String { container.root.lastPathComponent }

    public static func == (left: AppContainerLease, right: AppContainerLease) -> Bool {
        left.name == right.name
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
    }
}
