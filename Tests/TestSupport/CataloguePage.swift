/// An engine's catalogue page (docs/NAIVE.md, docs/OUTBOX.md, …) read the way its catalogue
/// test compares it with the catalogue in code: the `- **ID** text` entries of the page's
/// `## GROUP —` sections, in order, with their `  - Choice: ` lines.
public enum CataloguePage {
    /// One `- **ID** text` entry of the page.
    public struct Entry: Sendable {
        public var id: String
        public var group: String
        public var text: String
        public var choices: [String] = []
        /// Its line on the page, from 1.
        public var line: Int
    }

    /// The entries of `page` (relative to the repository) under the headings `## G —` for
    /// each group G of `groups`; entries under any other `## ` heading are not read. A
    /// group that is a prefix of another (`NAIVE`, `NAIVEW`) is told apart by the dash.
    public static func entries(of page: String, groups: [String]) throws -> [Entry] {
        let lines = try TestSupport.read(page).split(separator: "\n", omittingEmptySubsequences: false)
        var entries: [Entry] = []
        var group: String?
        for (index, raw) in lines.enumerated() {
            let line = String(raw)
            if line.hasPrefix("## ") {
                group = groups.first { line.hasPrefix("## \($0) —") }
                continue
            }
            guard let group else { continue }
            if line.hasPrefix("- **"), let end = line.range(of: "** ") {
                let id = String(line[line.index(line.startIndex, offsetBy: 4)..<end.lowerBound])
                entries.append(Entry(id: id, group: group, text: String(line[end.upperBound...]),
                                     line: index + 1))
            } else if line.hasPrefix("  - Choice: "), !entries.isEmpty {
                entries[entries.count - 1].choices.append(String(line.dropFirst("  - Choice: ".count)))
            }
        }
        return entries
    }
}
