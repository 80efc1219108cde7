import Scenario
import Testing

/// A test input with position markers (`1️⃣` … `9️⃣`) where diagnostics are expected, in the
/// style of swift-syntax's parser tests: the markers are stripped and their line and column
/// (in Unicode scalars, as the parser counts) are remembered.
struct MarkedSource {
    let text: String
    let markers: [(name: String, location: Scenario.SourceLocation)]

    init(_ annotated: String) {
        let scalars = Array(annotated.unicodeScalars)
        var text = String.UnicodeScalarView()
        var markers: [(String, Scenario.SourceLocation)] = []
        var line = 1
        var column = 1
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if index + 2 < scalars.count, ("1"..."9").contains(scalar),
                scalars[index + 1] == "\u{FE0F}", scalars[index + 2] == "\u{20E3}"
            {
                let name = String(scalar) + "\u{FE0F}\u{20E3}"
                markers.append((name, .init(line: line, column: column)))
                index += 3
                continue
            }
            text.append(scalar)
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }
        self.text = String(text)
        self.markers = markers
    }

    func location(of marker: String) -> Scenario.SourceLocation? {
        markers.first { $0.name == marker }?.location
    }
}

/// A diagnostic a test expects at a marker: the full message as rendered after
/// `error: ` (suggestion included), and optionally its ID.
struct ExpectedDiagnostic: Sendable, CustomTestStringConvertible {
    var marker: String
    var message: String
    var id: String?

    init(_ marker: String, _ message: String, id: String? = nil) {
        self.marker = marker
        self.message = message
        self.id = id
    }

    var testDescription: String { "\(marker) \(message)" }
}

/// The header every inline test input needs, so tests show only what they are about.
let header = "scenario \"test\"\n"

/// Checks `annotated` (parsed and validated) and asserts that exactly the expected errors
/// appear, each at its marker, in file order.
func assertDiagnostics(
    _ annotated: String, _ expected: [ExpectedDiagnostic],
    options: ValidationOptions = ValidationOptions(),
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let source = MarkedSource(annotated)
    let result = ScenarioChecker.check(source: source.text, file: "test.scenario", options: options)
    let actual = result.diagnostics.map { "\($0.location) \($0.fullMessage)" }
    let wanted = expected.map { item -> String in
        let location = source.location(of: item.marker).map(\.description) ?? "no marker"
        return "\(location) \(item.message)"
    }
    #expect(actual == wanted, sourceLocation: sourceLocation)
    for item in expected {
        guard let id = item.id, let location = source.location(of: item.marker) else { continue }
        let ids = result.diagnostics.filter { $0.location == location }.map(\.id.rawValue)
        #expect(ids.contains(id), "\(item.marker) has \(ids)", sourceLocation: sourceLocation)
    }
}

/// The expectations a source without diagnostics holds, in order (the checks of a new
/// `expect` form read them).
func expectationKinds(_ source: String) -> [ExpectationKind] {
    let result = ScenarioChecker.check(source: source, file: "t")
    #expect(result.diagnostics.map(\.rendered) == [])
    return result.scenario.timeline.compactMap { statement in
        guard case .expectation(let expectation) = statement.kind else { return nil }
        return expectation.kind
    }
}
