import Foundation
import Testing

@testable import Scenario

/// Damaged input never crashes or hangs the parser, and every diagnostic sits on a real
/// position of the damaged text: for every scenario file (fixtures and `Scenarios/`), every
/// truncation (at every Unicode scalar boundary of small files; at each token's start, middle
/// and end in files longer than `scalarCutLimit`, to keep the suite fast in debug builds),
/// every dropped token and every duplicated token.
@Suite struct MutationTests {
    static let scalarCutLimit = 1_500

    static let files: [URL] = Fixtures.allScenarioFiles()

    static func scalars(of url: URL) throws -> [Unicode.Scalar] {
        Array(try String(contentsOf: url, encoding: .utf8).unicodeScalars)
    }

    @Test func thereAreFilesToMutate() {
        #expect(Self.files.count >= 2)
    }

    @Test(arguments: files)
    func everyTruncation(file: URL) throws {
        let scalars = try Self.scalars(of: file)
        for end in Self.cutPoints(scalars) {
            Self.checkPositions(of: Self.text(scalars[..<end]), mutation: "cut at \(end)")
        }
    }

    @Test(arguments: files)
    func everyDroppedToken(file: URL) throws {
        let scalars = try Self.scalars(of: file)
        for range in Self.tokenRanges(scalars) {
            let text = Self.text(scalars[..<range.lowerBound])
                + Self.text(scalars[range.upperBound...])
            Self.checkPositions(of: text, mutation: "dropped \(range)")
        }
    }

    @Test(arguments: files)
    func everyDuplicatedToken(file: URL) throws {
        let scalars = try Self.scalars(of: file)
        for range in Self.tokenRanges(scalars) {
            let token = Self.text(scalars[range])
            let text = Self.text(scalars[..<range.upperBound]) + " " + token
                + Self.text(scalars[range.upperBound...])
            Self.checkPositions(of: text, mutation: "duplicated \(range)")
        }
    }

    /// Random token soups and raw characters from a fixed seed: same cases on every run.
    @Test func randomSoupsFromAFixedSeed() {
        var generator = SplitMix64(seed: 0x5CE7_A210)
        let vocabulary = [
            "entity", "Note", "{", "}", ":", "String", "?", "[", "]", "=", "\"x\"", "\"", "\\",
            "hex\"0\"", "1.5s", "..", "-", "10%", "phone", "cloud", "expect", "when", "reaches",
            "download.done", "insert", "n1", "title", "nil", "text(", "3KB", ")", "&", "#", "\n",
            "\n", " ", "\t", "é", "\u{0}", "\r\n", "identity(", ",", "sync",
            "9999999999999999999999",
            "scenario", "account", "device", "on", "wait", "at", "settle", "not", "fired", "SYNC-4",
        ]
        for round in 0..<3_000 {
            var text = ""
            for _ in 0..<(generator.next() % 40) {
                text += vocabulary[Int(generator.next() % UInt64(vocabulary.count))]
                if generator.next() % 3 == 0 { text += " " }
            }
            Self.checkPositions(of: text, mutation: "soup \(round)")
        }
    }

    // MARK: - Helpers

    static func text(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// Where to cut: everywhere in a small file, else at token starts, middles and ends.
    static func cutPoints(_ scalars: [Unicode.Scalar]) -> [Int] {
        if scalars.count <= scalarCutLimit { return Array(0...scalars.count) }
        var points = [0, scalars.count]
        for range in tokenRanges(scalars) {
            let middle = (range.lowerBound + range.upperBound) / 2
            points += [range.lowerBound, middle, range.upperBound]
        }
        return Array(Set(points)).sorted()
    }

    /// Scalar offsets of every token but the end of file, from the lexer's line:column.
    static func tokenRanges(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var lineStarts = [0]
        for (offset, scalar) in scalars.enumerated() where scalar == "\n" {
            lineStarts.append(offset + 1)
        }
        let tokens = Lexer.tokenize(text(scalars)).tokens.dropLast()
        return tokens.compactMap { token in
            guard token.location.line <= lineStarts.count else { return nil }
            let start = lineStarts[token.location.line - 1] + token.location.column - 1
            let end = start + token.text.unicodeScalars.count
            return end <= scalars.count ? start..<end : nil
        }
    }

    /// Parses and validates, then checks each diagnostic and note position is in the text.
    static func checkPositions(of text: String, mutation: String) {
        let result = ScenarioChecker.check(source: text, file: "mutated.scenario")
        let lineLengths = text.unicodeScalars
            .split(separator: "\n", omittingEmptySubsequences: false).map(\.count)
        let locations = result.diagnostics.flatMap { [$0.location] + $0.notes.map(\.location) }
        for location in locations {
            let onLine = location.line >= 1 && location.line <= lineLengths.count
            let inLine = onLine && location.column >= 1
                && location.column <= lineLengths[location.line - 1] + 1
            #expect(inLine, "\(mutation): \(location) outside the text")
        }
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator, so fuzz cases repeat.
struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
