@testable import SDS
import Testing

/// `RecordNameSet` answers the same as a `Set<String>` while it lists its names and after it
/// moves them into a hashed set (past `listedAtMost`).
@Suite struct RecordNameSetTests {
    @Test func answersAsASetOfStringsListedAndHashed() {
        var names = RecordNameSet()
        var reference = Set<String>()
        let all = (0..<(3 * RecordNameSet.listedAtMost)).map { "record-\($0)" }
        #expect(!names.contains("record-0"))
        for (index, name) in all.enumerated() {
            names.insert(name)
            names.insert(name)
            reference.insert(name)
            if index % 3 == 1 {
                names.remove(all[index - 1])
                reference.remove(all[index - 1])
            }
            for asked in all + ["other", ""] {
                #expect(names.contains(asked) == reference.contains(asked), "\(asked) after \(name)")
            }
        }
    }
}
