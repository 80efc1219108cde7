import Testing

@testable import Scenario

/// `did you mean` candidates: close, deterministic, and absent when nothing is close.
@Suite struct SuggestionTests {
    @Test(arguments: [
        ("lapotp", ["phone", "laptop", "tablet"], ["laptop"]),
        ("phon", ["phone", "laptop"], ["phone"]),
        ("note", ["Note", "Folder"], ["Note"]),
        ("xyz", ["phone", "laptop"], []),
        ("serverRejected", CloudKitErrorCode.allCases.map(\.rawValue), ["serverRejectedRequest"]),
        ("sycn", DeviceActionTable.keywords, ["sync"]),
        ("reset-sync", DeviceActionTable.keywords, ["reset-sync-data"]),
        ("a", ["b", "c", "d", "e"], ["b", "c", "d"]),
        ("phone", ["phone"], []),
    ] as [(String, [String], [String])])
    func closest(word: String, candidates: [String], expected: [String]) {
        #expect(Suggestions.closest(to: word, among: candidates) == expected)
    }

    @Test func transpositionCostsOneEdit() {
        let lhs = Array("lapotp".unicodeScalars)
        let rhs = Array("laptop".unicodeScalars)
        #expect(Suggestions.doubledDistance(lhs, rhs) == 2)
        let upper = Array("Note".unicodeScalars)
        #expect(Suggestions.doubledDistance(upper, Array("note".unicodeScalars)) == 1)
        #expect(Suggestions.doubledDistance([], Array("abc".unicodeScalars)) == 6)
    }

    @Test func veryLongWordsAreNotCompared() {
        let word = String(repeating: "a", count: 500)
        #expect(Suggestions.closest(to: word, among: [word + "b"]) == [])
    }

    @Test func renderingJoinsSeveralCandidates() {
        var diagnostic = Scenario.Diagnostic(
            id: "x", file: "f", location: .init(line: 2, column: 3), message: "unknown thing 'q'")
        #expect(diagnostic.rendered == "f:2:3: error: unknown thing 'q'")
        diagnostic.suggestions = ["a"]
        #expect(diagnostic.rendered == "f:2:3: error: unknown thing 'q'; did you mean 'a'?")
        diagnostic.suggestions = ["a", "b", "c"]
        #expect(diagnostic.rendered
            == "f:2:3: error: unknown thing 'q'; did you mean 'a', 'b' or 'c'?")
        diagnostic.notes = [.init(location: .init(line: 1, column: 1), message: "first here")]
        diagnostic.severity = .warning
        #expect(diagnostic.renderedWithNotes
            == "f:2:3: warning: unknown thing 'q'; did you mean 'a', 'b' or 'c'?\n"
                + "f:1:1: note: first here")
    }
}
