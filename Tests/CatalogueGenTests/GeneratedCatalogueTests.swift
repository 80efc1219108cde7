import CatalogueGen
import TestSupport
import Testing

/// Each engine's catalogue in Swift is what the generator derives from its docs page today:
/// the page is the only source, so the two cannot drift.
@Suite struct GeneratedCatalogueTests {
    @Test(arguments: CatalogueSpec.bundled)
    func theCheckedInFileIsWhatThePageGives(spec: CatalogueSpec) throws {
        let output = CatalogueGenerator.generate(spec, page: try TestSupport.read(spec.page))
        #expect(output.problems.isEmpty, "\(output.problems)")
        let checkedIn = try TestSupport.read(spec.output)
        let line = Self.firstDifference(checkedIn, output.source)
        let message = "\(spec.output) is not what \(spec.page) gives (line \(line)); "
            + "run `\(CatalogueSpec.command)` from the repository root"
        #expect(checkedIn == output.source, Comment(rawValue: message))
    }

    @Test func everyBundledPageHasItsOwnFileAndTypeOnce() {
        let specs = CatalogueSpec.bundled
        #expect(Set(specs.map(\.page)).count == specs.count)
        #expect(Set(specs.map(\.output)).count == specs.count)
        for spec in specs {
            #expect(spec.output.hasSuffix("/\(spec.typeName)+Generated.swift"), "\(spec.output)")
        }
    }

    @Test func theGeneratedFileSaysItIsGeneratedAndHowToRegenerate() {
        let spec = CatalogueSpec(page: "docs/X.md", output: "Sources/X/XRules+Generated.swift",
                                 typeName: "XRules")
        let output = CatalogueGenerator.generate(spec, page: "## X — things\n- **X-1** One.\n")
        #expect(output.source.hasPrefix(
            "// Generated from docs/X.md by `swift run catalogue-gen`; do not edit.\n"))
        #expect(output.source.contains("extension XRules {"))
        #expect(output.source.contains("        (\"X\", \"things\"),\n"))
    }

    /// The 1-based number of the first line where two texts differ.
    static func firstDifference(_ old: String, _ new: String) -> Int {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false)
        let same = zip(a, b).prefix { $0 == $1 }.count
        return same + 1
    }
}
