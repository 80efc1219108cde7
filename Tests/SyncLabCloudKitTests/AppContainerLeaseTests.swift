import CloudKit
import Foundation
import Testing

/// A scenario device's container is held by its disk: each run gets its own, and its files
/// go once no copy of the disk holds it, so a sweep does not keep every run's.
@Suite struct AppContainerLeaseTests {
    @Test func aFreshContainerIsNewAndGoesWithItsLastLease() throws {
        let containers = AppContainers()
        defer { containers.removeAll() }
        var lease: AppContainerLease? = containers.freshContainer(for: "phone")
        let root = try #require(lease?.container.root)
        try Data("notes".utf8).write(to: root.appendingPathComponent("Documents/notes.json"))
        let other = containers.freshContainer(for: "phone")
        #expect(other != lease)
        #expect(other.container.root != root)
        var copies = [lease]
        lease = nil
        #expect(FileManager.default.fileExists(atPath: root.path), "a copy of the disk holds it")
        copies.removeAll()
        #expect(!FileManager.default.fileExists(atPath: root.path))
        #expect(FileManager.default.fileExists(atPath: other.container.root.path))
    }
}
