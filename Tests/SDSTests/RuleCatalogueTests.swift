import SDS
import SyncContract
import TestSupport
import Testing

/// The catalogue as data agrees with the project's copy of it as prose, `docs/RULES.md`,
/// word for word, and keeps the IDs the seed's catalogue gave out.
@Suite struct RuleCatalogueTests {
    /// The groups of RULES.md, in order.
    static let expectedGroups = [
        "SYNC", "DL", "HDO", "ADOPT", "DEL", "SCHEMA", "EXT", "LIFE", "ACCT", "ERR", "BIG", "CFG",
        "ID", "LIM", "DR",
    ]

    /// How many rules each group had in seed 000's catalogue; IDs are permanent, so each of
    /// these must stay.
    static let seedRuleCounts = [
        ("SYNC", 7), ("DL", 5), ("HDO", 3), ("ADOPT", 4), ("DEL", 3), ("SCHEMA", 4), ("EXT", 3),
        ("LIFE", 6), ("ACCT", 5), ("ERR", 7), ("BIG", 5), ("CFG", 3), ("ID", 7), ("LIM", 6),
    ]

    @Test func everyRuleOfTheDocsIsInTheCatalogueWithTheSameTextAndViceVersa() throws {
        let document = try RulesDocument.read()
        #expect(document.problems.isEmpty, "\(document.problems)")
        let catalogue = SDSRules.catalogue.rules
        let documentedIDs = document.rules.map(\.id)
        for rule in document.rules where SDSRules.catalogue.rule(rule.id) == nil {
            Issue.record("docs/RULES.md:\(rule.line): \(rule.id) is not in SDSRules.catalogue.rules")
        }
        for rule in catalogue where !documentedIDs.contains(rule.id) {
            Issue.record("\(rule.id) of SDSRules.catalogue.rules is not in docs/RULES.md")
        }
        #expect(catalogue.map(\.id) == documentedIDs, "the two lists are in different orders")
        for documented in document.rules {
            guard let rule = SDSRules.catalogue.rule(documented.id) else { continue }
            let line = "docs/RULES.md:\(documented.line)"
            #expect(rule.text == documented.text, "\(line): \(rule.id)'s text differs")
            #expect(rule.group == documented.group, "\(line): \(rule.id)'s group differs")
            #expect(rule.choice == documented.choice, "\(line): \(rule.id)'s choice differs")
        }
    }

    @Test func groupsAreThoseOfRulesMarkdownInOrder() throws {
        let document = try RulesDocument.read()
        #expect(SDSRules.catalogue.groups == Self.expectedGroups)
        #expect(document.groups.map(\.group) == Self.expectedGroups)
        for (group, title) in document.groups {
            #expect(SDSRules.catalogue.title(ofGroup: group) == title, "\(group)")
        }
        #expect(SDSRules.catalogue.title(ofGroup: "NOPE") == nil)
        // Rules of one group stand together, the groups in catalogue order.
        var seen: [String] = []
        for rule in SDSRules.catalogue.rules where seen.last != rule.group {
            seen.append(rule.group)
        }
        #expect(seen == Self.expectedGroups)
    }

    @Test func idsAreUniqueAndAscendWithinTheirGroup() {
        let ids = SDSRules.catalogue.rules.map(\.id)
        #expect(Set(ids).count == ids.count, "duplicate IDs")
        var lastNumber: [String: Int] = [:]
        for rule in SDSRules.catalogue.rules {
            #expect(rule.id.hasPrefix(rule.group + "-"), "\(rule.id) in \(rule.group)")
            let number = Int(rule.id.dropFirst(rule.group.count + 1))
            #expect(number != nil, "\(rule.id) does not end in a number")
            guard let number else { continue }
            #expect(number > lastNumber[rule.group, default: 0], "\(rule.id) is out of order")
            lastNumber[rule.group] = number
        }
    }

    @Test func theSeedsIDsAreAllStillThere() {
        var total = 0
        for (group, count) in Self.seedRuleCounts {
            for number in 1...count {
                #expect(SDSRules.catalogue.rule("\(group)-\(number)")?.group == group,
                        "\(group)-\(number) is gone; IDs are permanent")
            }
            total += count
        }
        #expect(total == 68)
        #expect(SDSRules.catalogue.rules.count >= total)
    }

    @Test func textsArePlainSentences() {
        for rule in SDSRules.catalogue.rules {
            #expect(!rule.text.contains("**"), "\(rule.id): markdown bold in the text")
            #expect(!rule.text.contains("  ") && !rule.text.contains("\n"), "\(rule.id)")
            // A sentence may open with code (`resetSyncData()` …), never in lower case.
            let first = rule.text.first ?? " "
            #expect(first.isUppercase || first == "`", "\(rule.id) starts in lower case")
            #expect(rule.text.hasSuffix("."), "\(rule.id) does not end with a full stop")
            if let choice = rule.choice {
                #expect(!choice.isEmpty && !choice.hasPrefix("Choice:"), "\(rule.id)")
            }
        }
    }

    @Test func lookUpByID() {
        #expect(SDSRules.catalogue.rule("SYNC-2")?.text
            == "Every synchronization downloads first, then uploads.")
        #expect(SDSRules.catalogue.rule("LIM-6")?.group == "LIM")
        #expect(SDSRules.catalogue.rule("SYNC-99") == nil)
        #expect(SDSRules.catalogue.rule("sync-2") == nil)
        #expect(SDSRules.catalogue.rules(inGroup: "HDO").map(\.id) == ["HDO-1", "HDO-2", "HDO-3"])
    }

    @Test func theEnginesChoicesAreRecorded() {
        #expect(SDSRules.catalogue.rule("SYNC-1")?.choice?.contains("500 ms") == true)
        #expect(SDSRules.catalogue.rule("DL-1")?.choice?.contains("download.page.stored") == true)
        #expect(SDSRules.catalogue.rule("SYNC-2")?.choice == nil)
    }

    @Test func theDocsKeepTheIdentityEncodingSection() throws {
        let text = try TestSupport.read("docs/RULES.md")
        #expect(text.contains("\n## Identity record names, exactly\n"))
        #expect(text.contains("`s:23:https://example.org/rss;`"))
    }

    @Test func theParserOfTheDocsReportsMalformedLines() {
        let document = RulesDocument(text: """
            ## SYNC — how a synchronization runs
            - **SYNC-1** First.
              - Choice: one.
              - Choice: two.
            - **SYNC 2** Broken.
            ## Identity record names, exactly
            - **ID-1** Outside a group.
              - Choice: stray.
            """)
        #expect(document.rules.map(\.id) == ["SYNC-1"])
        #expect(document.rules.first?.choice == "one.\ntwo.")
        #expect(document.problems.count == 3, "\(document.problems)")
    }
}

/// The rules of `docs/RULES.md`, read the way a person reads them.
///
/// A group starts at `## GROUP — title`; any other `##` heading ends it. A rule is a line
/// `- **ID** text`; the `  - Choice: …` lines right below it are its choice, one per line.
/// Lines that look like rules or choices but break that shape are reported, not skipped.
struct RulesDocument {
    struct DocumentedRule {
        var id: String
        var group: String
        var text: String
        var choice: String?
        var line: Int
    }

    var groups: [(group: String, title: String)] = []
    var rules: [DocumentedRule] = []
    var problems: [String] = []

    static func read() throws -> RulesDocument {
        RulesDocument(text: try TestSupport.read("docs/RULES.md"))
    }

    init(text: String) {
        var group: String?
        var afterRule = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let number = index + 1
            if line.hasPrefix("## ") {
                group = heading(String(line.dropFirst(3)))
                afterRule = false
            } else if line.hasPrefix("- **") {
                afterRule = rule(String(line.dropFirst(4)), group: group, line: number)
            } else if line.hasPrefix("  - Choice: ") {
                let choice = String(line.dropFirst("  - Choice: ".count))
                guard afterRule, let last = rules.indices.last else {
                    problems.append("line \(number): a choice below no rule")
                    continue
                }
                rules[last].choice = rules[last].choice.map { $0 + "\n" + choice } ?? choice
            } else {
                afterRule = false
            }
        }
    }

    /// Records `GROUP — title` and returns the group, or nil for another heading.
    private mutating func heading(_ text: String) -> String? {
        let parts = text.split(separator: " — ", maxSplits: 1)
        guard parts.count == 2, parts[0].allSatisfy({ $0.isUppercase && $0.isLetter }) else {
            return nil
        }
        groups.append((String(parts[0]), String(parts[1])))
        return String(parts[0])
    }

    /// Reads `ID** text`; false when the line is not a well-formed rule of a group.
    private mutating func rule(_ text: String, group: String?, line: Int) -> Bool {
        let parts = text.split(separator: "** ", maxSplits: 1)
        guard parts.count == 2, let group else {
            problems.append("line \(line): a rule outside a group, or without '**ID** text'")
            return false
        }
        let id = String(parts[0])
        guard id.hasPrefix(group + "-"), Int(id.dropFirst(group.count + 1)) != nil else {
            problems.append("line \(line): '\(id)' is not an ID of group \(group)")
            return false
        }
        rules.append(DocumentedRule(
            id: id, group: group, text: String(parts[1]), choice: nil, line: line))
        return true
    }
}
