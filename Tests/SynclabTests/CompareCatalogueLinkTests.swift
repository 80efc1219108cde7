import Engines
import Foundation
import SyncContract
import TestSupport
import Testing

/// `synclab compare` links every rule ID to the section of its engine's catalogue page
/// (`EngineProfile.cataloguePage`) that lists it. Every link of the Markdown and HTML
/// pages must land on a heading GitHub really anchors, for every registered engine, so an
/// engine added to the registry is checked without touching this file.
@Suite struct CompareCatalogueLinkTests {
    /// GitHub's heading anchor, written here apart from the code under test: lower case,
    /// letters, digits, `-` and `_` kept, a space becomes `-`, everything else dropped;
    /// a repeated anchor gets `-1`, `-2`, …
    static func githubAnchors(_ markdown: String) -> [String] {
        var anchors: [String] = []
        var inFence = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inFence.toggle(); continue }
            guard !inFence, line.hasPrefix("#") else { continue }
            let hashes = line.prefix { $0 == "#" }.count
            guard hashes <= 6, line.dropFirst(hashes).first == " " else { continue }
            var text = String(line.dropFirst(hashes + 1))
            // [text](target) shows as text.
            while let open = text.range(of: "]("), let close = text[open.upperBound...].firstIndex(of: ")") {
                text.removeSubrange(open.lowerBound...close)
                if let bracket = text[..<open.lowerBound].lastIndex(of: "[") { text.remove(at: bracket) }
            }
            var slug = ""
            for character in text.lowercased() {
                if character == " " { slug.append("-") }
                else if character == "-" || character == "_" || character.isLetter || character.isNumber {
                    slug.append(character)
                }
            }
            var unique = slug
            var count = 0
            while anchors.contains(unique) { count += 1; unique = "\(slug)-\(count)" }
            anchors.append(unique)
        }
        return anchors
    }

    @Test func theAnchorRuleIsGitHubs() {
        let page = """
            # The rule catalogue
            ## SYNC — how a synchronization runs
            ## States (`expect DEVICE: state …`)
            ```
            ## not a heading
            ```
            ## NAIVE-D — the literal code (the `naive-literal` variant)
            ## Notes
            ## Notes
            ## See [the format](FORMAT.md)
            """
        #expect(Self.githubAnchors(page) == [
            "the-rule-catalogue", "sync--how-a-synchronization-runs", "states-expect-device-state-",
            "naive-d--the-literal-code-the-naive-literal-variant", "notes", "notes-1", "see-the-format",
        ])
    }

    /// Every rule of every registered engine is listed (`- **ID** …`) under a heading of
    /// its engine's catalogue page: what a link to it needs.
    @Test(arguments: EngineRegistry.bundled.names)
    func everyRuleOfTheEngineIsListedUnderAHeading(_ engine: String) throws {
        let profile = try #require(EngineRegistry.bundled.profile(named: engine))
        let text = try TestSupport.read(profile.cataloguePage)
        var sawHeading = false
        var listed: Set<String> = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#") { sawHeading = true }
            if sawHeading, line.hasPrefix("- **"), let end = line.dropFirst(4).range(of: "**") {
                listed.insert(String(line.dropFirst(4)[..<end.lowerBound]))
            }
        }
        for rule in profile.catalogue.rules {
            #expect(listed.contains(rule.id), "\(profile.cataloguePage) does not list \(rule.id) as '- **\(rule.id)** …'")
        }
    }

    /// Links of a page: Markdown `](target)` and HTML `href="target"`.
    static func links(in text: String) -> [String] {
        var found: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "](") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: ")") else { break }
            found.append(String(after[..<close]))
            rest = after[close...]
        }
        rest = Substring(text)
        while let open = rest.range(of: "href=\"") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: "\"") else { break }
            found.append(String(after[..<close]).replacingOccurrences(of: "&amp;", with: "&"))
            rest = after[close...]
        }
        return found
    }

    /// Writes the comparison of every bundled story in both formats, as if into
    /// Reports/compare (`--link-root ../..`), and follows every link.
    @Test(arguments: ["markdown", "html"])
    func everyLinkOfTheComparisonLandsOnAHeadingOfThePageItNames(_ format: String) throws {
        let folder = try TestSupport.temporaryFolder("compare-links-\(format)")
        let output = try TestSupport.runSynclab(
            ["compare", "Scenarios/compare", "--engines", "all", "--format", format,
             "--out", folder.path, "--link-root", "../.."])
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        let base = TestSupport.repositoryRoot.appendingPathComponent("Reports/compare")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.count > 20)
        var anchorsOfPage: [String: [String]] = [:]
        var pagesLinked: Set<String> = []
        var checked = 0
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let ids = Set(Self.attributeValues("id", in: text))
            for link in Self.links(in: text) {
                if link.hasPrefix("#") {
                    #expect(ids.contains(String(link.dropFirst())), "\(name): '\(link)' names no element of the page")
                    continue
                }
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, parts[0].hasSuffix(".md") else { continue }
                let page = base.appendingPathComponent(String(parts[0])).standardized
                let path = String(page.path.dropFirst(TestSupport.repositoryRoot.standardized.path.count + 1))
                guard FileManager.default.fileExists(atPath: page.path) else {
                    Issue.record("\(name): '\(link)' names a page that is not in the repository")
                    continue
                }
                if anchorsOfPage[path] == nil {
                    anchorsOfPage[path] = Self.githubAnchors(try String(contentsOf: page, encoding: .utf8))
                }
                #expect(anchorsOfPage[path]?.contains(String(parts[1])) == true,
                    "\(name): '\(link)' names no heading of \(path)")
                pagesLinked.insert(path)
                checked += 1
            }
        }
        #expect(checked > 100, "only \(checked) catalogue links")
        // Every registered engine's catalogue is linked: each runs the stories.
        for engine in EngineRegistry.bundled.names {
            let page = try #require(EngineRegistry.bundled.profile(named: engine)).cataloguePage
            #expect(pagesLinked.contains(page), "no link to \(engine)'s \(page)")
        }
    }

    /// `id="…"` values of a page.
    static func attributeValues(_ name: String, in text: String) -> [String] {
        var values: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: " \(name)=\"") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: "\"") else { break }
            values.append(String(after[..<close]))
            rest = after[close...]
        }
        return values
    }
}
