@testable import CloudSim
import Testing

/// The cloud's byte-by-byte texts (change tags, zone names, changed keys) are exactly what
/// `+`, interpolation and `joined(separator:)` make: they reach traces and reports.
@Suite struct TextConcatenationTests {
    static let parts = ["", "a", "title", "CD_modifiedAt", "a much longer key than fifteen bytes",
                        "\u{E9}t\u{E9}", "e\u{301}", "日付"]

    @Test func joinedMatchesJoinedWithASeparator() {
        #expect(TextConcatenation.joined([], separator: UInt8(ascii: ",")) == "")
        for count in 1...4 {
            for start in Self.parts.indices {
                let list = (0..<count).map { Self.parts[(start + $0 * 3) % Self.parts.count] }
                let text = TextConcatenation.joined(list, separator: UInt8(ascii: ","))
                #expect(text == list.joined(separator: ","))
                #expect(Array(text.utf8) == Array(list.joined(separator: ",").utf8))
            }
        }
    }

    @Test func aPairMatchesItsInterpolation() {
        for first in Self.parts {
            for second in Self.parts {
                let text = TextConcatenation.joined(first, UInt8(ascii: ":"), second)
                #expect(Array(text.utf8) == Array("\(first):\(second)".utf8))
            }
        }
        #expect(ZoneID(owner: "alice", name: "Notes").description == "Notes:alice")
    }

    @Test func prefixedMatchesTheNumbersDescription() {
        let numbers: [Int64] = [0, 1, 9, 10, 99, 100, 12_345, 1_000_000_007, .max, -1, -10, .min]
        for number in numbers {
            #expect(TextConcatenation.prefixed("ct", number) == "ct" + String(number))
        }
        #expect(RecordBatch.changeTag(42) == "ct42")
    }
}
