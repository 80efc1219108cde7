import Foundation
import Testing
import TestSupport

/// Issue 11 item 13: the docs point only at files of the repository. Every relative
/// Markdown link of README.md and docs/*.md resolves to a file here, and no document
/// mentions an absolute path or a design file that only existed outside the repository.
@Suite struct DocumentationLinkTests {
    static var documents: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(
            atPath: TestSupport.repositoryRoot.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    /// `[text](target)` and `[name]: target` targets, without `#fragment`.
    static func linkTargets(in text: String) -> [String] {
        var targets: [String] = []
        let scalars = Array(text)
        var index = 0
        while index < scalars.count {
            if scalars[index] == "]", index + 1 < scalars.count, scalars[index + 1] == "(" {
                var end = index + 2
                while end < scalars.count, scalars[end] != ")", scalars[end] != "\n" { end += 1 }
                targets.append(String(scalars[(index + 2)..<min(end, scalars.count)]))
                index = end
            }
            index += 1
        }
        for line in text.split(separator: "\n") where line.hasPrefix("[") {
            guard let close = line.range(of: "]: ") else { continue }
            targets.append(String(line[close.upperBound...]).trimmingCharacters(in: .whitespaces))
        }
        return targets.map { target in
            let withoutTitle = target.split(separator: " ").first.map(String.init) ?? target
            return withoutTitle.split(separator: "#", omittingEmptySubsequences: false)
                .first.map(String.init) ?? withoutTitle
        }
    }

    @Test func theDocumentsExist() {
        #expect(Self.documents.contains("docs/SCENARIO-FORMAT.md"))
        #expect(Self.documents.contains("docs/BENCH.md"))
        #expect(Self.documents.count >= 9)
    }

    @Test(arguments: documents)
    func everyRelativeLinkResolves(_ document: String) throws {
        let text = try TestSupport.read(document)
        let folder = TestSupport.repositoryRoot.appendingPathComponent(document)
            .deletingLastPathComponent()
        let targets = Self.linkTargets(in: text)
        for target in targets where !target.isEmpty && !target.contains("://")
            && !target.hasPrefix("mailto:")
        {
            let path = folder.appendingPathComponent(target).standardized.path
            #expect(FileManager.default.fileExists(atPath: path),
                "\(document) links to '\(target)', which is not in the repository")
        }
    }

    /// Mentions of files that are not links still have to exist: `SCENARIO-FORMAT.md`,
    /// `BENCH.md`, `RULES.md` name files of docs/; `CLOUDKIT.md`, `DESIGN.md`, `STYLE.md`
    /// and absolute paths name nothing a reader has.
    @Test(arguments: documents)
    func noDocumentPointsOutsideTheRepository(_ document: String) throws {
        let text = try TestSupport.read(document)
        for outside in ["/work/", "shared/", "CLOUDKIT.md", "DESIGN.md", "STYLE.md",
            "ENGINES.md", "PERF-PROFILE.md", "/Users/", "/home/", "file://"]
        {
            #expect(!text.contains(outside), "\(document) mentions '\(outside)'")
        }
        let docs = TestSupport.repositoryRoot.appendingPathComponent("docs")
        var rest = Substring(text)
        while let range = rest.range(of: ".md") {
            let before = rest[..<range.lowerBound]
            let name = String(before.reversed().prefix { $0.isLetter || $0 == "-" || $0 == "_" }
                .reversed())
            if name.count > 1, name == name.uppercased() {
                let file = name + ".md"
                let found = FileManager.default.fileExists(
                    atPath: docs.appendingPathComponent(file).path)
                    || FileManager.default.fileExists(
                        atPath: TestSupport.repositoryRoot.appendingPathComponent(file).path)
                #expect(found, "\(document) names \(file), which is not in the repository")
            }
            rest = rest[range.upperBound...]
        }
    }

    /// The test can fail: a made-up link is found missing.
    @Test func aMissingTargetIsFound() {
        let targets = Self.linkTargets(in: "see [x](nowhere.md#a) and\n[y]: ../gone.md\n")
        #expect(targets == ["nowhere.md", "../gone.md"])
        let missing = TestSupport.repositoryRoot.appendingPathComponent("docs/nowhere.md").path
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
