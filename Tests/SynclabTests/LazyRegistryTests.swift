import Harness
import Scenario
import SDS
import SyncContract
import Testing

/// A registry builds an engine's profile only when something asks for that engine: listing
/// the names, comparing registries and validating a scenario on another engine build nothing.
@Suite struct LazyRegistryTests {
    /// The engines whose profile was asked for, in order (one test, one thread).
    final class Asked: @unchecked Sendable {
        var names: [String] = []
    }

    /// A scenario on `engine` that expects sds's SYNC-4 to fire.
    static func source(engine: String) -> String {
        """
        scenario "lazy"
        engine \(engine)
        entity Note {
          title: String = ""
        }
        account alice
        device phone on alice
        expect phone: fired SYNC-4
        """
    }

    @Test func anEngineRegisteredByNameIsBuiltOnlyWhenAskedFor() {
        let asked = Asked()
        var registry = EngineRegistry()
        registry.register(named: SDSEngine.name) {
            asked.names.append(SDSEngine.name)
            return SDSProfile.profile
        }
        registry.register(named: "outbound") {
            asked.names.append("outbound")
            return OutboundProfile.profile
        }
        #expect(registry.names == [SDSEngine.name, "outbound"])
        #expect(registry == registry)
        let options = registry.validationOptions()
        #expect(asked.names.isEmpty)

        let checked = ScenarioChecker.check(
            source: Self.source(engine: SDSEngine.name), file: "lazy.scenario", options: options)
        #expect(checked.diagnostics.isEmpty)
        #expect(asked.names == [SDSEngine.name])

        #expect(registry.profile(named: "outbound")?.name == "outbound")
        #expect(asked.names == [SDSEngine.name, "outbound"])
    }

    @Test func aRuleIDIsStillCheckedAgainstTheNamedEnginesCatalogue() {
        let options = EngineRegistry.bundled.validationOptions()
        let messages = ScenarioChecker.check(
            source: Self.source(engine: "outbox"), file: "lazy.scenario", options: options)
            .diagnostics.map(\.rendered)
        #expect(messages.count == 1)
        #expect(messages.first?.contains("SYNC-4") == true)
    }
}
