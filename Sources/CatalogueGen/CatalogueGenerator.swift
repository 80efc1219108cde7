import Foundation

/// Derives every catalogue's Swift file from its docs page (`swift run catalogue-gen`), and
/// tells which checked-in files differ from what their page gives (`--check`, and the test).
public enum CatalogueGenerator {
    /// What one page gives: the Swift file's text, or the page's malformed lines.
    public struct Output: Sendable {
        public var spec: CatalogueSpec
        public var source: String
        public var problems: [String]
    }

    /// The Swift file of one page's text.
    public static func generate(_ spec: CatalogueSpec, page text: String) -> Output {
        let reader = CataloguePageReader(
            text: text, extraSections: spec.extraSections.map(\.heading))
        var problems = reader.problems.map { "\(spec.page): \($0)" }
        if reader.entries.isEmpty { problems.append("\(spec.page): no rule found") }
        return Output(spec: spec, source: CatalogueSwiftWriter.source(of: reader, spec: spec),
                      problems: problems)
    }

    /// Reads every page below `root`; `write` rewrites the generated files that differ.
    /// Returns the lines to print and whether everything was (or now is) up to date.
    public static func run(root: URL, specs: [CatalogueSpec] = CatalogueSpec.bundled,
                           write: Bool) throws -> (lines: [String], upToDate: Bool) {
        var lines: [String] = []
        var upToDate = true
        for spec in specs {
            let page = try String(contentsOf: root.appendingPathComponent(spec.page),
                                  encoding: .utf8)
            let output = generate(spec, page: page)
            guard output.problems.isEmpty else {
                lines += output.problems
                upToDate = false
                continue
            }
            let url = root.appendingPathComponent(spec.output)
            let current = try? String(contentsOf: url, encoding: .utf8)
            if current == output.source { continue }
            if write {
                try Data(output.source.utf8).write(to: url)
                lines.append("wrote \(spec.output) from \(spec.page)")
            } else {
                lines.append(
                    "\(spec.output) differs from \(spec.page); run `\(CatalogueSpec.command)`")
                upToDate = false
            }
        }
        return (lines, upToDate)
    }
}
