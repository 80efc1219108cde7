@testable import Harness
import Engines
import Scenario
import SyncContract
import Testing

/// The `sign-out` and `switch-account` chaos faults: they strike a device in its own
/// account, the heal signs it back in, the checkers judge each change by the account it
/// was made for, and the engines' account weaknesses fire and are reported by ID.
@Suite struct AccountFaultTests {
    static let accounts = """
        scenario "Account changes under faults"
        entity Note {
          title: String = ""
          count: Int = 0
        }
        account alice
        account bob
        device phone on alice
        device laptop on alice
        chaos workload 40 operations every 100ms..2s
        chaos fault sign-out 6%
        chaos fault switch-account 6%
        chaos fault offline 3%
        """

    @Test func theFaultsStrikeAndTheHealSignsEveryDeviceBack() throws {
        let explorer = ExplorerFixtures.explorer(Self.accounts)
        var struck = (signOut: 0, switched: 0)
        for seed in UInt64(1)...6 {
            let run = explorer.drawnRun(seed: seed, options: explorer.options)
            for step in run.steps {
                if case .device(_, .signOut) = step.action { struck.signOut += 1 }
                if case .signIn(_, "bob") = step.action { struck.switched += 1 }
            }
            for device in run.world.devices {
                #expect(device.account == "alice", "seed \(seed): \(device.name) not back")
            }
        }
        #expect(struck.signOut > 0)
        #expect(struck.switched > 0)
    }

    @Test(arguments: [("outbox", "OBXW-7"), ("history", "HISW-12"), ("mirror", "MIRW-4")])
    func theEnginesAccountWeaknessFiresAndIsReported(engine: String, weakness: String) {
        let options = ExploreOptions(engines: .bundled, engine: engine)
        let explorer = ExplorerFixtures.explorer(Self.accounts, options: options)
        let results = (UInt64(1)...8).map { explorer.run(seed: $0) }
        #expect(results.contains { $0.firedWeaknesses.contains(weakness) },
            "\(weakness) never fired on \(engine)")
    }

    /// sds keeps a change made while signed out and uploads it once signed in again
    /// (ACCT-1): counted for the account it goes to, it is not lost.
    @Test func aChangeMadeWhileSignedOutCountsForTheAccountSignedIntoNext() {
        let source = """
            scenario "A save while signed out"
            engine sds
            entity Note {
              title: String = ""
            }
            account alice
            device phone on alice
            device laptop on alice
            chaos workload 1 operations by laptop every 1s
            chaos mix update 100%
            settle
            phone: sign-out
            phone: insert Note n1 title="Offline from iCloud"
            phone: sign-in alice
            settle
            """
        let result = ExplorerFixtures.explorer(source).run(seed: 1)
        #expect(result.violations.filter { $0.check == .lostChange } == [])
        #expect(result.outcome == .clean)
    }

    @Test func aSwarmWorldThatSwitchesAccountsHasASecondAccount() throws {
        let worlds = (UInt64(1)...200).map { SwarmWorld(seed: $0) }
        let switching = worlds.filter { $0.features.contains("switch-account") }
        #expect(!switching.isEmpty)
        for world in switching {
            #expect(world.source.contains("\naccount bob\n"), "seed \(world.seed)")
        }
        // A world that shares has bob too, once, for its device on a second account.
        for world in worlds {
            let bob = world.source.components(separatedBy: "\naccount bob\n").count - 1
            let needed = world.features.contains("switch-account")
                || world.features.contains("sharing")
            #expect(bob == (needed ? 1 : 0), "seed \(world.seed)")
        }
        #expect(worlds.contains { $0.features.contains("sign-out") })
    }
}
