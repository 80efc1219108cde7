import Scenario
import Testing

/// Literals read as attribute values: what the harness stores and compares.
@Suite struct ValueTests {
    static func value(_ literal: ValueLiteral) -> Value {
        Value(literal, text: "", location: .start)
    }

    @Test func stringsDatesUUIDsAndURLs() {
        let date = Self.value(.string("2026-01-01T10:00:00.123Z"))
        #expect(date.attributeValue(for: .date)
            == .date(microsecondsSince1970: 1_767_261_600_123_000))
        let epoch = Self.value(.string("1970-01-01T00:00:00Z"))
        #expect(epoch.attributeValue(for: .date) == .date(microsecondsSince1970: 0))
        let leap = Self.value(.string("2024-02-29T23:59:59.999999Z"))
        #expect(leap.attributeValue(for: .date)
            == .date(microsecondsSince1970: 1_709_251_199_999_999))
        let before = Self.value(.string("1969-12-31T23:59:59Z"))
        #expect(before.attributeValue(for: .date) == .date(microsecondsSince1970: -1_000_000))
        for bad in ["2023-02-29T00:00:00Z", "2026-01-01 10:00:00Z", "2026-01-01T10:00:00",
            "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T10:00:00.Z",
            "2026-01-01T10:00:00.1234567Z"]
        {
            #expect(Self.value(.string(bad)).attributeValue(for: .date) == nil, "\(bad)")
        }
        let uuid = Self.value(.string("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"))
        #expect(uuid.attributeValue(for: .uuid) == .uuid("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(Self.value(.string("e621e1f8c36c495a93fc0c247a3e6e5f")).attributeValue(for: .uuid)
            == nil)
        #expect(Self.value(.string("https://example.org/rss")).attributeValue(for: .url)
            == .url("https://example.org/rss"))
        for bad in ["example.org", "https://a b", ":x", "1http://x", "mailto:"] {
            #expect(Self.value(.string(bad)).attributeValue(for: .url) == nil, "\(bad)")
        }
    }

    @Test func numbersBoolsDataAndNil() {
        #expect(Self.value(.integer(3)).attributeValue(for: .int) == .int(3))
        #expect(Self.value(.integer(3)).attributeValue(for: .double) == .double(3))
        #expect(Self.value(.decimal("-3.5")).attributeValue(for: .double) == .double(-3.5))
        #expect(Self.value(.decimal("-3.5")).attributeValue(for: .int) == nil)
        #expect(Self.value(.bool(true)).attributeValue(for: .bool) == .bool(true))
        #expect(Self.value(.hexData([0, 255])).attributeValue(for: .data) == .data([0, 255]))
        #expect(Self.value(.generatedBytes(byteCount: 3)).attributeValue(for: .data)
            == .generatedData(byteCount: 3))
        #expect(Self.value(.generatedText(byteCount: 3)).attributeValue(for: .string)
            == .generatedText(byteCount: 3))
        #expect(Self.value(.null).attributeValue(for: .int) == .null)
        #expect(Self.value(.label("n1")).attributeValue(for: .string) == nil)
        let huge = "1" + String(repeating: "0", count: 400) + ".5"
        #expect(Self.value(.decimal(huge)).attributeValue(for: .double) == nil)
    }

    @Test func parsedLiteralsKeepTheirSourceText() throws {
        let source = header + """
            entity N {
              a: String = "x\\ty\\"z\\\\"
              b: Data = hex"00FFab"
              c: Double = 1.50
            }
            """
        let result = ScenarioChecker.check(source: source, file: "t")
        #expect(result.diagnostics.isEmpty)
        let values = try #require(result.scenario.entities.first?.attributes.map(\.defaultValue))
        #expect(values.map { $0?.literal } == [
            .string("x\ty\"z\\"), .hexData([0, 255, 171]), .decimal("1.50"),
        ])
        #expect(values.map { $0?.text } == ["\"x\\ty\\\"z\\\\\"", "hex\"00FFab\"", "1.50"])
        #expect(values.map { $0?.location } == [
            .init(line: 3, column: 15), .init(line: 4, column: 13), .init(line: 5, column: 15),
        ])
    }

    @Test func cloudKitErrorCodesKeepTheirRawValues() {
        #expect(CloudKitErrorCode.internalError.code == 1)
        #expect(CloudKitErrorCode.serverRejectedRequest.code == 15)
        #expect(CloudKitErrorCode.userDeletedZone.code == 28)
        #expect(CloudKitErrorCode.participantAlreadyInvited.code == 37)
        #expect(CloudKitErrorCode.allCases.count == 37)
    }
}
