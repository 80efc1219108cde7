import Engines
import SyncContract
import Foundation
import TestSupport
import Testing

/// An unknown engine, probe point or property far from every valid name lists the valid
/// ones (or the command that does); `check --engine` validates against another engine.
@Suite struct UnknownNameTests {
    func check(_ text: String, name: String, _ extra: [String] = []) throws
        -> TestSupport.ProcessOutput
    {
        let folder = try TestSupport.temporaryFolder("unknown-names-\(name)")
        let file = folder.appendingPathComponent("\(name).scenario")
        try Data(text.utf8).write(to: file)
        return try TestSupport.runSynclab(["check", file.path] + extra)
    }

    static let file = """
        scenario "Names"
        engines sds, zzzzzz
        entity Note {
          title: String = ""
          body: String?
        }
        account alice
        device phone on alice
        phone: insert Note n1 qqqqq="A"
        phone: update n1 titel="B"
        when phone reaches nothing.here: phone: kill
        """

    @Test func farFromEveryNameTheChoicesAreListed() throws {
        let run = try check(Self.file, name: "far")
        #expect(run.status == 2)
        let engines = EngineRegistry.bundled.names.map { "'\($0)'" }
        let list = engines.dropLast().joined(separator: ", ") + " and " + engines.last!
        #expect(run.standardError.contains(
            ":2:14: error: unknown engine 'zzzzzz'; the engines are \(list) "
                + "('synclab engines' describes them)"), "\(run.standardError)")
        #expect(run.standardError.contains(
            ":9:23: error: entity 'Note' has no property 'qqqqq'; its properties are 'title' "
                + "and 'body'"), "\(run.standardError)")
        #expect(run.standardError.contains(
            ":11:20: error: unknown probe point 'nothing.here'; 'synclab probes --engine sds' "
                + "lists the probe points of engine 'sds'"), "\(run.standardError)")
        // A close typo still gets its suggestion alone.
        #expect(run.standardError.contains(
            ":10:18: error: entity 'Note' has no property 'titel'; did you mean 'title'?\n"),
            "\(run.standardError)")
    }

    @Test func anExtensionsSyncListNamesTheEntitysProperties() throws {
        let run = try check("""
            scenario "Extension"
            entity Note {
              title: String = ""
              body: String?
            }
            account alice
            device phone on alice
            device widget extension of phone syncs Note(zzzz)
            """, name: "extension")
        #expect(run.status == 2)
        #expect(run.standardError.contains("error: unknown property 'zzzz'; the properties of "
            + "'Note' are 'title' and 'body'"), "\(run.standardError)")
    }

    @Test func checkValidatesAgainstAnotherEngineWithoutRunning() throws {
        let path = "Scenarios/engines/naive/NAIVEW-6-kill-after-the-database-token.scenario"
        #expect(try TestSupport.runSynclab(["check", path]).status == 0)
        let sds = try TestSupport.runSynclab(["check", path, "--engine", "sds"])
        #expect(sds.status == 2)
        #expect(sds.standardError.contains("unknown probe point 'naive.db-token.saved'; "
            + "'synclab probes --engine sds' lists the probe points of engine 'sds'"),
            "\(sds.standardError)")
        let unknown = try TestSupport.runSynclab(["check", path, "--engine", "nope"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("unknown engine 'nope'"))
    }
}
