import CloudSim
import Foundation
import Kernel
import Testing

/// Answers never depend on the order state was built in (DESIGN.md, determinism rule 2), and
/// the sources use nothing that could make a run differ from the next.
@Suite struct DeterminismTests {
    static let zoneNames = (1...40).map { "Zone\($0)" }

    /// Zones and subscriptions created in a given order, then one change per zone.
    func cloud(zoneOrder: [String], deviceOrder: [String]) -> (CloudFixture, [CloudOutcome]) {
        let fixture = CloudFixture(createZone: false)
        for device in deviceOrder {
            fixture.send(
                .saveDatabaseSubscription(scope: .privateDatabase),
                from: CloudClient(device: device, account: "alice"))
        }
        let zones = zoneOrder.map { ZoneID(owner: "alice", name: $0) }
        fixture.send(
            .modifyZones(scope: .privateDatabase, save: zones, delete: []), from: fixture.phone)
        var outcomes: [CloudOutcome] = []
        for zone in zones.sorted() {
            let records = (1...5).map {
                CloudRecord(recordType: "Note", recordName: "r\($0)", zone: zone)
            }
            outcomes.append(fixture.modify(saves: records.map(newSave), in: zone))
        }
        return (fixture, outcomes)
    }

    @Test func creationOrderDoesNotReachAnswers() {
        let devices = (1...12).map { "device\($0)" }
        let (forward, forwardOutcomes) = cloud(zoneOrder: Self.zoneNames, deviceOrder: devices)
        let (backward, backwardOutcomes) = cloud(
            zoneOrder: Self.zoneNames.reversed(), deviceOrder: devices.reversed())
        #expect(forwardOutcomes.map(\.pushes) == backwardOutcomes.map(\.pushes))
        #expect(forwardOutcomes.first?.pushes == devices.sorted())
        let forwardFeed = forward.fetchDatabase(after: nil).databaseChanges?.changed
        let backwardFeed = backward.fetchDatabase(after: nil).databaseChanges?.changed
        #expect(forwardFeed == backwardFeed)
        #expect(forwardFeed == forwardFeed?.sorted())
        #expect(forward.cloud.zones(of: "alice") == backward.cloud.zones(of: "alice"))
    }

    @Test func inspectionIsSortedByName() {
        let fixture = CloudFixture()
        let names = (1...60).map { "n\(($0 * 37) % 61)" }
        fixture.modify(saves: names.map { newSave(fixture.note($0)) })
        #expect(fixture.cloud.records(in: fixture.zone).map(\.recordName) == names.sorted())
        fixture.modify(deletes: names)
        #expect(fixture.cloud.tombstones(in: fixture.zone).map(\.recordName) == names.sorted())
    }

    /// Patterns that bring wall-clock time, system randomness, threads or Foundation into the
    /// cloud; the whole target must stay a pure state machine.
    static let forbidden = [
        "import Foundation", "Date(", "UUID(", "SystemRandomNumberGenerator", ".random(",
        "DispatchQueue",
        "Task.sleep", "Thread", " async ", "await ",
    ]

    @Test func theCloudSourcesUseNoClockRandomnessOrThreads() throws {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/CloudSim")
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 5)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for pattern in Self.forbidden {
                #expect(!text.contains(pattern), "\(file) contains '\(pattern)'")
            }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
                .enumerated()
            {
                #expect(line.count <= 100, "\(file):\(index + 1) is \(line.count) columns")
            }
        }
    }
}
