@testable import Scenario
import Testing

/// The syntax tree and the lexer kept lean for generated scripts of a million statements
/// (issue 19, docs/BENCH.md "Measured after the fifth session's memory work"), with every
/// diagnostic and every value of the tree what it was.
@Suite struct LeanTreeTests {
    static let setup = """
        scenario "t"
        entity Note {
          title: String = ""
          body: String?
        }
        account alice
        device phone on alice

        """

    static func check(_ timeline: String) -> ParseResult {
        ScenarioChecker.check(source: setup + timeline, file: "t")
    }

    // MARK: - Lexing on demand

    @Test func tokensOnDemandAreTheWholeFilesTokens() {
        let source = Self.setup + "phone: insert Note n1 title=\"a\\\"b\" # note\nwait 5s\n"
        let whole = Lexer.tokenize(source).tokens
        let lexer = Lexer(source: source)
        var onDemand: [Token] = []
        repeat { onDemand.append(lexer.next()) } while onDemand.last?.kind != .endOfFile
        #expect(onDemand == whole)
        // Past the end, the end of file again.
        #expect(lexer.next().kind == .endOfFile)
        #expect(whole.contains { $0.kind == .string && $0.value == "a\"b" && $0.text == "\"a\\\"b\"" })
    }

    @Test func aByteOrderMarkIsDroppedAndColumnsCountScalars() {
        let tokens = Lexer.tokenize("\u{FEFF}wait é 5s").tokens
        #expect(tokens.first?.text == "wait")
        #expect(tokens.first?.location == Scenario.SourceLocation(line: 1, column: 1))
        #expect(tokens.dropFirst().first?.location == Scenario.SourceLocation(line: 1, column: 8))
    }

    /// The lexer's explanation of a spot still wins over the parser's, though the parser now
    /// speaks before the rest of the file is lexed: `phone$` is an unexpected character where
    /// the parser would say a ':' is missing after the device name.
    @Test func theLexersExplanationOfASpotStillComesFirst() {
        let result = Self.check("phone$ insert Note n1\n")
        let rendered = result.diagnostics.map(\.rendered)
        #expect(rendered.count == 1)
        #expect(rendered.first?.hasPrefix("t:8:6: error: unexpected character '$'") == true,
                "\(rendered)")
    }

    @Test func problemsLaterInTheFileAreReportedInFileOrder() {
        let result = Self.check("phone: insert Note n1 title=\"open\nwait 5s ~\nphone: insert Note n2 body=\"x\\q\"\n")
        let locations = result.diagnostics.map(\.location)
        #expect(locations == [Scenario.SourceLocation(line: 8, column: 29), Scenario.SourceLocation(line: 9, column: 9),
                              Scenario.SourceLocation(line: 10, column: 30)], "\(result.diagnostics.map(\.rendered))")
        #expect(result.diagnostics.map(\.message).contains { $0.contains("no closing") })
    }

    // MARK: - Compact nodes

    @Test func statementsAndLocationsAreSmall() {
        // A statement's payload is boxed (`indirect`): 16 bytes in the timeline's array.
        #expect(MemoryLayout<TimelineStatement>.stride == 16)
        #expect(MemoryLayout<Scenario.SourceLocation>.size == 8)
    }

    @Test func locationsKeepTheirNumbersAndOrder() {
        var location = Scenario.SourceLocation(line: 3, column: 70_000)
        #expect(location.line == 3 && location.column == 70_000)
        #expect(Scenario.SourceLocation(line: 2, column: 9) < location)
        #expect(location < Scenario.SourceLocation(line: 3, column: 70_001))
        location.line = 12
        #expect(location.description == "12:70000")
        // Beyond 32 bits the largest number is kept, never a trap.
        #expect(Scenario.SourceLocation(line: Int.max, column: 1).line == Int(Int32.max))
    }

    @Test func aStringValueKeepsItsSourceText() throws {
        let result = Self.check(
            "phone: insert Note n1 title=\"body of note 123456789\" body=\"tab\\there \\\"q\\\"\"\n")
        #expect(result.diagnostics.isEmpty)
        guard case .deviceAction(let statement)? = result.scenario.timeline.last?.kind,
              case .insert(_, _, let values) = statement.action
        else { Issue.record("not an insert"); return }
        #expect(values.map(\.value.text) == ["\"body of note 123456789\"", "\"tab\\there \\\"q\\\"\""])
        #expect(values.map(\.value.literal) == [.string("body of note 123456789"), .string("tab\there \"q\"")])
    }

    @Test func aValuesTextAndLiteralStayWhatWasSet() {
        var value = Value(.string("a"), text: "\"a\"", location: .start)
        #expect(value.text == "\"a\"")
        #expect(value == Value(.string("a"), text: "\"a\"", location: .start))
        #expect(value != Value(.string("a"), text: "\"\\u0061\"", location: .start))
        // Changing the literal keeps the text as written, and the other way round.
        value.literal = .string("b")
        #expect(value.text == "\"a\"")
        value.text = "\"b\""
        #expect(value == Value(.string("b"), text: "\"b\"", location: .start))
        value.literal = .integer(7)
        #expect(value.text == "\"b\"")
        #expect(Value(.integer(-0), text: "-0", location: .start).text == "-0")
        #expect(Value(.string("x"), text: "", location: .start).text == "")
    }
}
