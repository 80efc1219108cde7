@testable import Harness
import Testing

/// `ChaosPlan.lines(of:)` finds a file's lines byte by byte, as the character split it
/// stands for does: a carriage return and line feed are one character, left inside a line.
@Suite struct ChaosPlanLinesTests {
    @Test(arguments: [
        "", "\n", "\n\n", "one", "one\n", "one\ntwo", "one\r\ntwo\n", "\r\n", "\r\r\n\r",
        "é\nx\u{301}\n\u{301}y", "tab\t\n  spaced  \n\n# last",
    ])
    func splitsAsTheCharacterSplit(source: String) {
        let expected = source.split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        #expect(ChaosPlan.lines(of: source) == expected)
    }
}
