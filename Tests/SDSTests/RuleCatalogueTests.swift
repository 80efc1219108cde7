import SDS
import SyncContract
import TestSupport
import Testing

/// The catalogue as data (generated from `docs/RULES.md`, GeneratedCatalogueTests checks
/// it is up to date) keeps the IDs the seed's catalogue gave out, in the page's shape.
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

    @Test func groupsAreThoseOfRulesMarkdownInOrder() {
        #expect(SDSRules.catalogue.groups == Self.expectedGroups)
        #expect(SDSRules.catalogue.title(ofGroup: "SYNC") == "how a synchronization runs")
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

    @Test func whatIsEnforcedAtInputExemptionsAndWeaknessesAreInTheCatalogue() {
        #expect(SDSRules.catalogue.enforcedAtInput.sorted() == ["CFG-2", "ID-6"])
        for id in SDSRules.catalogue.enforcedAtInput.sorted() {
            #expect(SDSRules.catalogue.rule(id) != nil, "\(id) is not in the catalogue")
        }
        let weaknesses = SDSRules.catalogue.weaknesses.map(\.group)
        #expect(weaknesses == Array(repeating: "LIM", count: 6) + Array(repeating: "DR", count: 9))
        #expect(SDSRules.catalogue.exemptions(from: "convergence") == ["ERR-2"])
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
}
