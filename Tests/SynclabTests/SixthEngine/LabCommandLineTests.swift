import Testing

@testable import SyncLabCLI

/// A lab built into its own executable names that executable in its help, its errors and its
/// version, so every command they suggest is one the lab can run (`synclab` does not know
/// its engines). The texts are checked under a name given, not the process's: other suites
/// run the command line in this process.
@Suite struct LabCommandLineTests {
    @Test func everyHelpTextNamesTheLabsExecutable() {
        let texts = [SyncLabCLI.help, RunCommand.help, CheckCommand.help, ProbesCommand.help,
                     EnginesCommand.help, ReportCommand.help, CompareCommand.help,
                     BenchCommand.help, RulesCommand.help, ExploreCommand.help]
        for text in texts {
            let named = ProgramName.named(text, as: "outbound-lab")
            #expect(!named.contains("synclab"), "\(named)")
            #expect(named.contains("USAGE: outbound-lab "), "\(named)")
        }
        let overview = ProgramName.named(SyncLabCLI.help, as: "outbound-lab")
        #expect(overview.contains("Run 'outbound-lab help COMMAND' or 'outbound-lab COMMAND"))
        #expect(ProgramName.named(SyncLabCLI.help, as: "synclab") == SyncLabCLI.help)
    }

    @Test func errorsNameItButNotFilesThatCarrySynclabInTheirNames() {
        let error = "synclab: error: see 'synclab engines'; synclab-1.scenario, "
            + "/src/synclab/Scenarios, synclab.json, .build/release/synclab bench"
        #expect(ProgramName.named(error, as: "notes-lab")
            == "notes-lab: error: see 'notes-lab engines'; synclab-1.scenario, "
            + "/src/synclab/Scenarios, synclab.json, .build/release/notes-lab bench")
    }

    @Test func itsVersionSaysWhichSyncLabItIsBuiltOn() {
        #expect(ProgramName.version(as: "notes-lab")
            == "notes-lab (SyncLab \(SyncLabVersion.current))")
        #expect(ProgramName.version(as: "synclab") == "synclab \(SyncLabVersion.current)")
    }
}
