import Engines
@testable import Harness
import LocalStore
import Scenario
import SyncContract
import Testing

/// The label table keeps `prefix<number>` labels in dense runs and every other label in a
/// dictionary (docs/BENCH.md, "Measured after the sixth session's world work"): whichever
/// place a label lands in, it must mean what one dictionary of bindings meant.
@Suite struct LabelTableTests {
    /// Labels of every shape: dense, past the gap allowance, leading zeros, no digits,
    /// digits inside, a bare number, more than nine digits.
    static let shapes = [
        "n0", "n2", "n1", "n5000", "n01", "x", "a1b2", "n007", "m3", "n1234567890", "n3",
    ]

    @Test func everyShapeOfLabelIsBoundOnceAndFoundAgain() {
        let table = LabelTable()
        for (index, label) in Self.shapes.enumerated() {
            #expect(!table.isBound(label))
            table.bind(label, device: index % 2, model: ModelID(UInt64(index + 1)))
        }
        for label in Self.shapes {
            #expect(table.isBound(label))
            #expect(table.recordName(of: label) == nil)
        }
        for label in ["n4", "n", "n00", "n1000", "m0", "y", "a1b", "n12345678901"] {
            #expect(!table.isBound(label), "\(label) was never bound")
        }
        #expect(table.resolvedBindings().isEmpty)
    }

    /// A label put in the dictionary because its number lay far past its run stays found
    /// once the run grows over its number, and a rebinding updates it in place.
    @Test func aFarLabelStaysFoundWhenTheRunReachesIt() {
        let table = LabelTable()
        table.bind("n1500", device: 1, model: ModelID(9_999))
        for number in 0..<1_600 where number != 1_500 {
            table.bind("n\(number)", device: 0, model: ModelID(UInt64(number + 1)))
        }
        for number in 0..<1_600 { #expect(table.isBound("n\(number)")) }
        #expect(!table.isBound("n1600"))
        table.bind("n1500", device: 0, model: ModelID(1_501))
        #expect(table.isBound("n1500"))
    }

    /// Through a whole run: labels of every shape resolve to their records, expectations on
    /// both devices and the cloud find them, the final state lists them sorted by label, and
    /// the leftovers name them.
    @Test func labelsOfEveryShapeMeanTheirRecordsInARun() throws {
        var text = """
        scenario "labels of every shape"
        seed 3

        entity Note {
          title: String = ""
        }

        account alice
        device phone on alice
        device laptop on alice

        """
        for label in Self.shapes {
            text += "phone: insert Note \(label) title=\"\(label)\"\n"
        }
        text += "settle\n"
        for label in Self.shapes {
            text += "expect laptop: \(label) title=\"\(label)\"\n"
            text += "expect cloud alice: \(label) title=\"\(label)\"\n"
        }
        text += "laptop: offline\nlaptop: update n5000 title=\"late\"\nlaptop: update n1 title=\"late\"\n"
        let checked = ScenarioChecker.check(
            source: text, file: "labels.scenario", options: EngineRegistry.bundled.validationOptions())
        try #require(!checked.hasErrors, "\(checked.diagnostics.map(\.renderedWithNotes))")
        let result = ScenarioRunner.run(checked.scenario, source: text, options: RunOptions(engines: .bundled))
        #expect(result.failure == nil)
        for expectation in result.expectations {
            #expect(expectation.passed, "\(expectation.wanted): \(expectation.found)")
        }
        let labels = result.finalState.labels.map(\.label)
        #expect(labels == Self.shapes.sorted())
        let phone = try #require(result.finalState.devices.first { $0.name == "phone" })
        let names = Set(phone.models.map(\.name))
        for binding in result.finalState.labels {
            #expect(names.contains(binding.recordName), "\(binding.label)'s record is on the phone")
        }
        let notUploaded = try #require(result.leftoverAccount.notUploaded.first { $0.device == "laptop" })
        #expect(notUploaded.models == ["n1", "n5000"])
    }
}
