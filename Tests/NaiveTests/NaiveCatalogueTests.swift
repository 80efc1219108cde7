import Naive
import SyncContract
import Testing
import TestSupport

/// The catalogue as data (`NaiveRules`, generated from docs/NAIVE.md) holds every ID; the
/// weaknesses name what they explain; the literal variant carries its own rules.
@Suite struct NaiveCatalogueTests {
    @Test func theGroupsAreTheBehavioursThenTheWeaknessesAndEveryIDIsThere() {
        let catalogue = NaiveRules.catalogue
        #expect(catalogue.groups == ["NAIVE", "NAIVEW", "NAIVE-DR"])
        #expect(catalogue.rules(inGroup: "NAIVE").map(\.id) == (1...14).map { "NAIVE-\($0)" })
        #expect(catalogue.rules(inGroup: "NAIVEW").map(\.id) == (1...12).map { "NAIVEW-\($0)" })
        // Every weakness explains something; no behaviour does.
        #expect(catalogue.weaknesses.map(\.id) == catalogue.rules(inGroup: "NAIVEW").map(\.id) + ["NAIVE-DR-1", "NAIVE-DR-2", "NAIVE-DR-3", "NAIVE-DR-4"])
        #expect(catalogue.explainers(of: "duplicate-identity") == ["NAIVEW-12"])
        #expect(catalogue.explainers(of: "resurrection")
            == ["NAIVEW-3", "NAIVEW-5", "NAIVEW-9", "NAIVEW-10", "NAIVE-DR-2", "NAIVE-DR-4"])
    }

    @Test func theProfileCarriesTheCatalogueTheContractProbesAndOnlySync() {
        let profile = NaiveProfile.profile
        #expect(profile.name == "naive")
        #expect(profile.seed == "004")
        #expect(profile.cataloguePage == "docs/NAIVE.md")
        #expect(Array(profile.probePointNames.prefix(10)) == ProbePoint.contractOrder)
        #expect(profile.probePointNames.dropFirst(10) == [
            "naive.db-token.saved", "naive.zone-fetch.start", "naive.retry.scheduled",
            "naive.error.logged",
        ])
        #expect(profile.statements == ["sync"])
        #expect(profile.codec.zoneNames == ["Notes"])
    }

    static let folder = "Scenarios/engines/naive"

    @Test func everyStoryOfThePageNamesABundledScenario() throws {
        let page = try TestSupport.read("docs/NAIVE.md")
        let files = Set(TestSupport.scenarioFiles(under: Self.folder))
        var named = 0
        for line in page.split(separator: "\n") where line.hasPrefix("| ") && line.contains("`NAIVE") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let last = cells.last, Int(cells.first ?? "") != nil else { continue }
            for part in last.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                where part.offset % 2 == 1 {
                let name = String(part.element)
                guard name.hasPrefix("NAIVE") else { continue }
                named += 1
                #expect(files.contains("\(Self.folder)/\(name).scenario"), "docs/NAIVE.md names \(name)")
            }
        }
        #expect(named >= 25, "only \(named) scenario names found in the stories table")
    }

    @Test func everyScenarioRunsOnNaiveTellsItsStoryAndEveryWeaknessHasAContrast() throws {
        let files = TestSupport.scenarioFiles(under: Self.folder)
        #expect(!files.isEmpty)
        for path in files {
            let text = try TestSupport.read(path)
            #expect(text.contains("\nengine naive\n"), "\(path) does not run on naive")
            #expect(text.contains("\nabout \""), "\(path) has no about")
            #expect(text.contains("fired NAIVE"), "\(path) expects no NAIVE/NAIVEW ID")
        }
        let names = files.map { String($0.split(separator: "/").last ?? "") }
        for weakness in NaiveRules.catalogue.weaknesses {
            #expect(names.contains { $0.hasPrefix("\(weakness.id)-") && !$0.contains("contrast") },
                    "\(weakness.id) has no scenario")
            #expect(names.contains { $0.hasPrefix("\(weakness.id)-contrast-") },
                    "\(weakness.id) has no contrast scenario")
        }
    }

    @Test func theLiteralVariantCarriesTheSharedRulesAndNAIVE15To18() {
        let literal = NaiveRules.literalCatalogue
        #expect(literal.rules.map(\.id) == [
            "NAIVE-1", "NAIVE-3", "NAIVE-5", "NAIVE-6", "NAIVE-7", "NAIVE-14",
            "NAIVE-15", "NAIVE-16", "NAIVE-17", "NAIVE-18",
        ])
        for id in ["NAIVE-15", "NAIVE-16", "NAIVE-17", "NAIVE-18"] {
            #expect(literal.rule(id)?.group == "NAIVE", "\(id) is not in group NAIVE")
            #expect(NaiveRules.catalogue.rule(id) == nil, "\(id) is the literal code's only")
        }
        for id in ["NAIVE-1", "NAIVE-3", "NAIVE-5", "NAIVE-6", "NAIVE-7", "NAIVE-14"] {
            #expect(literal.rule(id) == NaiveRules.catalogue.rule(id))
        }
        #expect(literal.weaknesses.map(\.id) == ["NAIVE-15", "NAIVE-17", "NAIVE-18"])
        #expect(NaiveProfile.literal.name == "naive-literal")
        #expect(NaiveProfile.literal.codec.zoneNames == ["_defaultZone"])
    }
}
