/// A catalogue page read the way a person reads it: its `## GROUP — title` sections and the
/// `- **ID** text` rules in them, each with the lines nested right below it.
///
/// Below a rule, `  - Choice: …` lines are its choice (one decision each, joined by
/// newlines), `  - Explains: a, b (why).` names the invariants a weakness explains,
/// `  - Exempts: a, b (why).` those the rule exempts a device from, `  - Workaround: …` how a
/// scenario steps around it, and `  - Source: …` lines are for the reader only. Any other
/// `##` heading ends the catalogue's section. Lines that look like catalogue lines but break
/// that shape (a rule wrapped onto a second line included) are reported, never skipped.
public struct CataloguePageReader: Sendable {
    /// One rule as the page words it.
    public struct Entry: Sendable, Hashable {
        public var id: String
        public var group: String
        public var text: String
        public var choices: [String] = []
        public var explains: [String] = []
        public var exempts: [String] = []
        public var workaround: String?
        /// The heading group of its section (differs from `group` in an extra section).
        public var section: String
        /// Its line on the page, from 1.
        public var line: Int
    }

    /// The groups of the page's sections in page order, with their titles.
    public private(set) var groups: [(group: String, title: String)] = []
    /// Every rule of every section, in page order.
    public private(set) var entries: [Entry] = []
    /// Each malformed line, as `line N: what is wrong`.
    public private(set) var problems: [String] = []

    /// Reads `text`; the sections headed by one of `extraSections` hold rules of another
    /// group (their ID's prefix) and add no group of their own.
    public init(text: String, extraSections: [String] = []) {
        var section: String?
        var afterRule = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, raw) in lines.enumerated() {
            let line = String(raw)
            let number = index + 1
            if line.hasPrefix("## ") {
                section = heading(String(line.dropFirst(3)), extraSections: extraSections)
                afterRule = false
            } else if let current = section, line.hasPrefix("- **") {
                afterRule = rule(String(line.dropFirst(4)), section: current,
                                 extra: extraSections.contains(current), line: number)
            } else if section != nil, line.hasPrefix("  - ") {
                guard afterRule else {
                    if Self.label(of: line) != nil {
                        problems.append("line \(number): a nested line below no rule")
                    }
                    continue
                }
                nested(String(line.dropFirst(4)), line: number)
            } else {
                if afterRule, !line.isEmpty {
                    problems.append("line \(number): text right below a rule; keep a rule and "
                        + "each of its nested lines on one line, and prose after a blank line")
                }
                afterRule = false
            }
        }
        checkUniqueIDs()
    }

    /// The label of a nested line (`Choice` of `  - Choice: …`), or nil for a plain bullet.
    private static func label(of line: String) -> String? {
        let body = line.dropFirst(4)
        guard let colon = body.firstIndex(of: ":") else { return nil }
        let label = body[..<colon]
        guard !label.isEmpty, label.allSatisfy(\.isLetter), label.first?.isUppercase == true
        else { return nil }
        return String(label)
    }

    /// Records `GROUP — title` and returns the group, or nil for another heading.
    private mutating func heading(_ text: String, extraSections: [String]) -> String? {
        let parts = text.split(separator: " — ", maxSplits: 1)
        guard parts.count == 2, Self.isGroupName(parts[0]) else { return nil }
        let group = String(parts[0])
        if !extraSections.contains(group) { groups.append((group, String(parts[1]))) }
        return group
    }

    /// `SYNC`, `OBX-DR`: capital letters, words joined by single hyphens.
    private static func isGroupName(_ text: Substring) -> Bool {
        let words = text.split(separator: "-", omittingEmptySubsequences: false)
        return words.allSatisfy { word in
            !word.isEmpty && word.allSatisfy { $0.isUppercase && $0.isLetter }
        }
    }

    /// Reads `ID** text`; false when the line is not a well-formed rule of its section.
    private mutating func rule(_ text: String, section: String, extra: Bool, line: Int) -> Bool {
        let parts = text.split(separator: "** ", maxSplits: 1)
        guard parts.count == 2, !parts[1].isEmpty else {
            problems.append("line \(line): a rule without '**ID** text'")
            return false
        }
        let id = String(parts[0])
        guard let dash = id.lastIndex(of: "-"), Int(id[id.index(after: dash)...]) != nil,
              Self.isGroupName(id[..<dash])
        else {
            problems.append("line \(line): '\(id)' is not an ID (GROUP-N)")
            return false
        }
        let group = String(id[..<dash])
        guard extra || group == section else {
            problems.append("line \(line): '\(id)' is not an ID of group \(section)")
            return false
        }
        entries.append(Entry(id: id, group: group, text: String(parts[1]), section: section,
                             line: line))
        return true
    }

    /// Reads one `Label: value` line nested below the last rule.
    private mutating func nested(_ text: String, line: Int) {
        let last = entries.count - 1
        guard let colon = text.range(of: ": ") else {
            problems.append("line \(line): a nested line without 'Label: '")
            return
        }
        let value = String(text[colon.upperBound...])
        switch text[..<colon.lowerBound] {
        case "Choice": entries[last].choices.append(value)
        case "Source": break
        case "Explains": entries[last].explains += invariants(value, line: line)
        case "Exempts": entries[last].exempts += invariants(value, line: line)
        case "Workaround":
            if entries[last].workaround != nil {
                problems.append("line \(line): a second workaround")
            }
            entries[last].workaround = value
        default:
            problems.append("line \(line): '\(text[..<colon.lowerBound])' is no label of a rule")
        }
    }

    /// `a, b (why).` as `[a, b]`: names in lower case and hyphens, the reason left out.
    private mutating func invariants(_ value: String, line: Int) -> [String] {
        var list = Substring(value)
        if let reason = list.range(of: " (") { list = list[..<reason.lowerBound] }
        if list.hasSuffix(".") { list = list.dropLast() }
        let names = list.split(separator: ", ", omittingEmptySubsequences: false).map(String.init)
        for name in names where name.isEmpty
            || !name.allSatisfy({ ($0.isLetter && $0.isLowercase) || $0 == "-" }) {
            problems.append("line \(line): '\(name)' is not an invariant's name")
        }
        return names
    }

    private mutating func checkUniqueIDs() {
        var seen: Set<String> = []
        for entry in entries where !seen.insert(entry.id).inserted {
            problems.append("line \(entry.line): \(entry.id) appears twice")
        }
    }
}
