import Scenario
import Testing

/// Durations, sizes and percentages are exact integers, never rounded through floating point.
@Suite struct NumberTests {
    /// The duration a one-line `wait` parses to, or nil with the diagnostics' IDs.
    static func waitDuration(_ text: String) -> Int64? {
        let result = ScenarioParser.parse(source: header + "wait \(text)\n", file: "t")
        guard case .wait(let span)? = result.scenario.timeline.first?.kind else { return nil }
        return span.value.microseconds
    }

    @Test(arguments: [
        ("1us", 1), ("250ms", 250_000), ("2s", 2_000_000), ("1.5s", 1_500_000),
        ("0.1s", 100_000), ("0.000001s", 1), ("5m", 300_000_000), ("1h", 3_600_000_000),
        ("1.25h", 4_500_000_000), ("0.5ms", 500), ("1.500000000000000000000s", 1_500_000),
        ("0s", 0), ("2562047788h", 9_223_372_036_800_000_000),
    ] as [(String, Int64)])
    func durationIsExact(text: String, microseconds: Int64) {
        #expect(Self.waitDuration(text) == microseconds)
    }

    @Test(arguments: [
        "0.0000001s", "0.5us", "1.0000001ms", "2562047789h", "99999999999999999999999s", "5",
        "5sec", "-1s", "1.s",
    ])
    func durationIsRejected(text: String) {
        let result = ScenarioParser.parse(source: header + "wait \(text)\n", file: "t")
        #expect(result.hasErrors)
        #expect(result.scenario.timeline.isEmpty)
    }

    @Test func rangeKeepsBothBounds() {
        let result = ScenarioParser.parse(
            source: header + "cloud latency 50ms..1.5s\ncloud push latency 1s..1s\n", file: "t")
        #expect(result.diagnostics.isEmpty)
        let configuration = result.scenario.cloud
        #expect(configuration.latency == .range(
            lower: TimeSpan(microseconds: 50_000), upper: TimeSpan(microseconds: 1_500_000)))
        #expect(configuration.pushLatency == .range(
            lower: TimeSpan(microseconds: 1_000_000), upper: TimeSpan(microseconds: 1_000_000)))
        #expect(configuration.latency.description == "50ms..1.5s")
    }

    @Test func cloudDefaultsFollowTheContract() {
        let configuration = CloudConfiguration()
        #expect(configuration.latency == .fixed(TimeSpan(microseconds: 100_000)))
        #expect(configuration.pushLatency == .fixed(TimeSpan(microseconds: 1_000_000)))
        #expect(configuration.pushDrop == .zero)
        #expect(configuration.pageSize == 100)
        #expect(configuration.environment == .development)
    }

    @Test(arguments: [
        ("0%", 0), ("10%", 100_000), ("0.5%", 5_000), ("100%", 1_000_000), ("0.0001%", 1),
        ("12.3400%", 123_400),
    ] as [(String, Int64)])
    func percentageIsPartsPerMillion(text: String, parts: Int64) {
        let result = ScenarioParser.parse(source: header + "cloud push drop \(text)\n", file: "t")
        #expect(result.diagnostics.isEmpty)
        #expect(result.scenario.cloud.pushDrop == Probability(partsPerMillion: parts))
        #expect(Probability(partsPerMillion: parts).description
            == (text == "12.3400%" ? "12.34%" : text))
    }

    @Test(arguments: [
        ("300KB", 307_200), ("2MB", 2_097_152), ("1.5KB", 1_536), ("7B", 7),
        ("50MB", 52_428_800), ("0.5MB", 524_288), ("0.046875GB", 50_331_648),
    ] as [(String, Int)])
    func sizeIsExactBytes(text: String, bytes: Int) {
        let source = header
            + "entity N {\n  body: String = text(\(text))\n  data: Data = bytes(\(text))\n}\n"
        let result = ScenarioChecker.check(source: source, file: "t")
        #expect(result.diagnostics.isEmpty)
        let attributes = result.scenario.entities.first?.attributes ?? []
        #expect(attributes.first?.defaultValue?.literal == .generatedText(byteCount: bytes))
        #expect(attributes.last?.defaultValue?.literal == .generatedBytes(byteCount: bytes))
    }

    @Test(arguments: ["1.1B", "0.0001KB", "-1KB", "3kb", "3", "99999999999GB"])
    func sizeIsRejected(text: String) {
        let source = header + "entity N {\n  body: String = text(\(text))\n}\n"
        #expect(ScenarioParser.parse(source: source, file: "t").hasErrors)
    }

    @Test func integerValuesUseSixtyFourBitsWithoutTrapping() {
        let source = header + """
            entity N {
              a: Int = 9223372036854775807
              b: Int = -9223372036854775808
              c: Int = 1️⃣9223372036854775808
              d: Double = -3.5
              e: Double = 12
            }
            """
        assertDiagnostics(source, [.init("1️⃣", "number '9223372036854775808' is too large; "
            + "whole numbers go from -9223372036854775808 to 9223372036854775807")])
        let tree = ScenarioParser.parse(source: MarkedSource(source).text, file: "t").scenario
        let values = tree.entities.first?.attributes.compactMap(\.defaultValue?.literal) ?? []
        #expect(values == [.integer(.max), .integer(.min), .decimal("-3.5"), .integer(12)])
    }

    @Test func timeSpanDescriptionIsExact() {
        let cases: [(Int64, String)] = [
            (0, "0s"), (1, "1us"), (1_500, "1500us"), (250_000, "250ms"), (1_500_000, "1.5s"),
            (60_000_000, "60s"), (1_000_001, "1000001us"),
        ]
        for (microseconds, text) in cases {
            #expect(TimeSpan(microseconds: microseconds).description == text)
        }
    }
}
