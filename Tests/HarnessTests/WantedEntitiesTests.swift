@testable import Harness
import Testing

/// `ChaosRun.WantedEntities` answers by position which entities a caller wants: in bits up
/// to 64 entities, in a list of flags past them (no bundled sweep has that many).
@Suite struct WantedEntitiesTests {
    @Test(arguments: [1, 2, 63, 64, 65, 130])
    func answersForEveryPosition(count: Int) {
        let names = (0..<count).map { "Entity\($0)" }
        // Every third entity, the last one included, and a name the schema lacks.
        let wanted = names.enumerated().filter { $0.offset % 3 == 0 || $0.offset == count - 1 }
            .map(\.element) + ["Missing"]
        let entities = ChaosRun.WantedEntities(names, wanted: wanted)
        for position in names.indices {
            #expect(
                entities.contains(position) == wanted.contains(names[position]),
                "position \(position) of \(count)")
        }
    }

    @Test func wantsNothingWhenNothingIsAsked() {
        let names = (0..<70).map { "Entity\($0)" }
        for count in [3, 70] {
            let entities = ChaosRun.WantedEntities(Array(names.prefix(count)), wanted: [])
            #expect((0..<count).allSatisfy { !entities.contains($0) })
        }
    }
}
