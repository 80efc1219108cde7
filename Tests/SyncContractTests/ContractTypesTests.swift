import SyncContract
import Testing

@Suite struct ContractTypesTests {
    struct Token: EngineSyncData {
        var value = 0
    }

    struct Other: EngineSyncData {}

    @Test func aStateWithoutDetailHoldsForAnyDetailOfItsName() {
        #expect(EngineState.syncing.isMet(by: EngineState("syncing", "import")))
        #expect(EngineState.syncing.isMet(by: .syncing))
        #expect(!EngineState.syncing.isMet(by: .idle))
        #expect(!EngineState("syncing", "export").isMet(by: EngineState("syncing", "import")))
        #expect(!EngineState("syncing", "export").isMet(by: .syncing))
        #expect(EngineState("error", "quotaExceeded").isMet(by: EngineState("error", "quotaExceeded")))
    }

    @Test func aBoxOpensOnlyAsTheTypeItHolds() {
        let box = SyncDataBox(Token(value: 7))
        #expect(box.contents(as: Token.self)?.value == 7)
        #expect(box.contents(as: Other.self) == nil)
        #expect(SyncDataBox().isEmpty && !box.isEmpty)
        #expect(box == SyncDataBox(Token(value: 7)) && box != SyncDataBox(Token(value: 8)))
    }

    @Test func timersAreNamedByTheEngineAndOrderedByName() {
        let debounce = EngineTimer("debounce")
        #expect(debounce == EngineTimer("debounce"))
        #expect(EngineTimer("a") < EngineTimer("b"))
        #expect(debounce.description == "debounce")
    }

    @Test func weaknessesExplainAndExemptionsSuspendInvariants() {
        let catalogue = RuleCatalogue(
            groupTitles: [("X", "things"), ("XW", "weaknesses")],
            rules: [
                Rule("X-1", "a rule", exempts: ["lost-change"]),
                Rule("XW-1", "a race", explains: ["convergence", "lost-change"]),
                Rule("XW-2", "another", explains: ["convergence"]),
            ])
        #expect(catalogue.weaknesses.map(\.id) == ["XW-1", "XW-2"])
        #expect(catalogue.explainers(of: "convergence") == ["XW-1", "XW-2"])
        #expect(catalogue.explainers(of: "resurrection").isEmpty)
        #expect(catalogue.exemptions(from: "lost-change") == ["X-1"])
        #expect(catalogue.rules(inGroup: "XW").count == 2)
        #expect(catalogue.title(ofGroup: "X") == "things")
    }

    @Test func appCallsAreTheFormatsStatements() {
        #expect(AppCall.syncNow.statement == "sync")
        #expect(AppCall.resetSyncData(deleteAll: true).statement == "reset-sync-data")
        let statements = [AppCall.syncNow, .stop, .start, .resetSyncData(deleteAll: false), .initializeSchema]
            .map(\.statement)
        #expect(statements.allSatisfy(EngineProfile.engineStatements.contains))
    }
}
