import CatalogueGen
import Foundation
import Testing

/// The generated Swift keeps every text exactly and every line within 100 columns.
@Suite struct CatalogueSwiftWriterTests {
    static let spec = CatalogueSpec(page: "docs/X.md", output: "Sources/X/XRules+Generated.swift",
                                    typeName: "XRules")

    static func source(_ page: String) -> String {
        CatalogueGenerator.generate(spec, page: page).source
    }

    @Test func aLongTextIsWrappedAtSpacesWithLineContinuations() throws {
        let words = (1...60).map { "word\($0)" }.joined(separator: " ") + "."
        let source = Self.source("## X — things\n- **X-1** \(words)\n")
        let lines = source.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 100 }, "\(source)")
        // Undoing the continuations gives the text back.
        let start = try #require(source.range(of: "text: \"\"\"\n"))
        let end = try #require(source.range(of: "\n            \"\"\""))
        let body = source[start.upperBound..<end.lowerBound]
            .split(separator: "\n").map { $0.dropFirst(12) }
            .map { $0.hasSuffix("\\") ? String($0.dropLast()) : String($0) }.joined()
        #expect(body == words)
    }

    @Test func choicesAreLinesOfOneLiteralAndListsFollowIt() {
        let source = Self.source("""
            ## X — things
            - **X-1** One.
              - Choice: first.
              - Choice: second.
              - Explains: convergence.
            """)
        #expect(source.contains("""
                    Rule(id: "X-1", group: "X", text: \"\"\"
                        One.
                        \"\"\", choice: \"\"\"
                        first.
                        second.
                        \"\"\", explains: ["convergence"]),
            """))
    }

    @Test func backslashesAndTripleQuotesAreEscaped() {
        let source = Self.source("## X — things\n- **X-1** A \\(x) and \"\"\" here.\n")
        #expect(source.contains("            A \\\\(x) and \"\"\\\" here.\n"), "\(source)")
    }
}
