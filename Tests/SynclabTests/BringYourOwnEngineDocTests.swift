import Foundation
import Testing
import TestSupport

/// docs/BRING-YOUR-OWN-ENGINE.md shows code from the example package; every snippet must still
/// be there word for word (the example's tests, run by CI, are the snippets' tests).
@Suite struct BringYourOwnEngineDocTests {
    static let folders = ["Examples/CloudKitNotes"]

    /// Every Swift and scenario file of the example package (manifest, sources, tests,
    /// findings), concatenated.
    static func exampleText() throws -> String {
        try folders.map(exampleText(in:)).joined(separator: "\n")
    }

    static func exampleText(in folder: String) throws -> String {
        let root = TestSupport.repositoryRoot.appendingPathComponent(folder)
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var paths: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasPrefix(".build") { continue }
            if path.hasSuffix(".swift") || path.hasSuffix(".scenario") { paths.append(path) }
        }
        return try paths.sorted().map {
            try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)
        }.joined(separator: "\n")
    }

    static func swiftBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let open = current {
                    blocks.append(open.joined(separator: "\n"))
                    current = nil
                } else if line == "```swift" || line == "```scenario" {
                    current = []
                }
            } else {
                current?.append(String(line))
            }
        }
        return blocks
    }

    @Test func everySnippetAppearsInTheExamplePackage() throws {
        let doc = try TestSupport.read("docs/BRING-YOUR-OWN-ENGINE.md")
        let blocks = Self.swiftBlocks(doc)
        #expect(blocks.count >= 10)
        let example = try Self.exampleText()
        for block in blocks {
            #expect(example.contains(block), "not in \(Self.folders):\n\(block)")
        }
    }

    @Test func theReadmeLinksTheGuideAndCIRunsTheExample() throws {
        let readme = try TestSupport.read("README.md")
        #expect(readme.contains("(docs/BRING-YOUR-OWN-ENGINE.md)"))
        let ci = try TestSupport.read(".ci/run")
        #expect(ci.contains("(cd Examples/CloudKitNotes && "))
    }
}
