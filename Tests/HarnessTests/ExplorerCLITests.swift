import Engines
import Foundation
import Harness
import SyncContract
import TestSupport
import Testing

/// `synclab explore` end to end, through the real binary: byte-identical output whatever
/// `--jobs` is, shards that merge into the whole, exit statuses.
@Suite(.serialized) struct ExplorerCLITests {
    /// Writes a chaos text to a fresh folder and returns the folder and the file's path.
    static func file(_ text: String, name: String) throws -> (folder: URL, path: String) {
        let folder = try TestSupport.temporaryFolder("explore-\(name)")
        let path = folder.appendingPathComponent("\(name).chaos")
        try Data(text.utf8).write(to: path)
        return (folder, path.path)
    }

    static func bytes(_ url: URL) throws -> Data {
        try Data(contentsOf: url)
    }

    /// `explore --swarm` needs no file; its output is the same whatever `--jobs` is, its rerun
    /// lines name the mode, and without `--engine` it is a usage error.
    @Test func theSwarmSweepNeedsNoFileAndIsTheSameInAnyJobs() throws {
        let arguments = ["explore", "--swarm", "--engine", "history", "--seeds", "12"]
        let one = try TestSupport.runSynclab(arguments + ["--jobs", "1", "--shrink-limit", "0"])
        let two = try TestSupport.runSynclab(arguments + ["--jobs", "2", "--shrink-limit", "0"])
        #expect(one.status == two.status)
        #expect(one.standardOutput.replacingOccurrences(of: "1 job", with: "2 jobs")
            == two.standardOutput)
        #expect(one.standardOutput.contains("  rerun: synclab explore --swarm --seed "))
        let missing = try TestSupport.runSynclab(["explore", "--swarm", "--seeds", "2"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("needs '--engine NAME'"))
    }

    @Test func explainedRunsListTheirSeedsAndALineThatRerunsOne() throws {
        let path = "Scenarios/explore/lim-1-edit-meets-deletion.chaos"
        let run = try TestSupport.runSynclab(["explore", path, "--seeds", "80"])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        guard let index = lines.firstIndex(where: { $0.hasPrefix("explained by LIM-1: seeds ") })
        else {
            Issue.record("no seed list: \(run.standardOutput)")
            return
        }
        let seeds = lines[index].dropFirst("explained by LIM-1: seeds ".count)
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        // The first few, then '…' when there are more.
        #expect(seeds.count <= 9)
        let first = try #require(seeds.first)
        #expect(lines[index + 1] == "  rerun: synclab explore \(path) --seed \(first)")
        let rerun = try TestSupport.runSynclab(["explore", path, "--seed", first])
        #expect(rerun.standardOutput.contains("explained by LIM-1: seeds \(first)\n"))
    }

    @Test func outputIsTheSameWhateverTheNumberOfJobs() throws {
        // A failing expectation makes every seed a finding, so shrunk files are compared too.
        let text = ExplorerFixtures.notes + "\nexpect cloud alice: count Note = 99\n"
        let (folder, path) = try Self.file(text, name: "jobs")
        var outputs: [String] = []
        for jobs in ["1", "2"] {
            let out = folder.appendingPathComponent("out-\(jobs)")
            let json = folder.appendingPathComponent("summary-\(jobs).json")
            let run = try TestSupport.runSynclab([
                "explore", path, "--seeds", "6", "--jobs", jobs, "--out", out.path,
                "--json", json.path, "--shrink-limit", "1", "--shrink-runs", "20",
            ])
            #expect(run.status == 1, "\(run.standardError)")
            outputs.append(run.standardOutput.replacingOccurrences(
                of: "\(jobs) job\(jobs == "1" ? "" : "s")", with: "J jobs")
                .replacingOccurrences(of: "out-\(jobs)", with: "out-J"))
        }
        #expect(outputs[0] == outputs[1])
        #expect(try Self.bytes(folder.appendingPathComponent("summary-1.json"))
            == Self.bytes(folder.appendingPathComponent("summary-2.json")))
        let first = folder.appendingPathComponent("out-1")
        let second = folder.appendingPathComponent("out-2")
        let names = try FileManager.default.contentsOfDirectory(atPath: first.path).sorted()
        #expect(names.contains("results.json"))
        #expect(names.contains("seed-1-expectation.scenario"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: second.path).sorted() == names)
        for name in names {
            #expect(try Self.bytes(first.appendingPathComponent(name))
                == Self.bytes(second.appendingPathComponent(name)), "\(name) differs")
        }
    }

    @Test func shardsMergeIntoTheWholeSweep() throws {
        let (folder, path) = try Self.file(ExplorerFixtures.notes, name: "shards")
        func sweep(_ extra: [String], _ name: String) throws -> URL {
            let json = folder.appendingPathComponent(name)
            let run = try TestSupport.runSynclab(
                ["explore", path, "--from", "3", "--to", "9", "--shrink-limit", "0",
                 "--json", json.path] + extra)
            #expect(run.status != 2, "\(run.standardError)")
            return json
        }
        let whole = try sweep([], "whole.json")
        let first = try sweep(["--shard", "1/2"], "first.json")
        let second = try sweep(["--shard", "2/2"], "second.json")
        let merged = folder.appendingPathComponent("merged.json")
        let merge = try TestSupport.runSynclab(
            ["explore", "merge", second.path, first.path, "--json", merged.path])
        #expect(merge.status != 2, "\(merge.standardError)")
        let decoder = JSONDecoder()
        var expected = try decoder.decode(ExploreSummary.self, from: Self.bytes(whole))
        let actual = try decoder.decode(ExploreSummary.self, from: Self.bytes(merged))
        #expect(actual.selections.count == 2)
        expected.selections = actual.selections
        #expect(actual == expected)
        let again = try TestSupport.runSynclab(["explore", "merge", first.path, first.path])
        #expect(again.status == 2)
    }

    @Test func exitStatuses() throws {
        let (folder, clean) = try Self.file(ExplorerFixtures.lonely, name: "status")
        #expect(try TestSupport.runSynclab(["explore", clean, "--seeds", "2"]).status == 0)
        let failing = folder.appendingPathComponent("failing.chaos")
        try Data((ExplorerFixtures.lonely + "\nexpect cloud alice: count Note = 99\n").utf8)
            .write(to: failing)
        let found = try TestSupport.runSynclab(
            ["explore", failing.path, "--seed", "1", "--shrink-limit", "0"])
        #expect(found.status == 1)
        #expect(found.standardOutput.contains("rerun: synclab explore \(failing.path) --seed 1"))
        let plain = folder.appendingPathComponent("plain.scenario")
        try Data("scenario \"plain\"\naccount alice\ndevice phone on alice\nsettle\n".utf8)
            .write(to: plain)
        for arguments in [
            ["explore", plain.path], ["explore", folder.appendingPathComponent("none").path],
            ["explore", clean, "--shard", "3/2"], ["explore", clean, "--jobz", "2"],
            ["explore", clean, "--seeds", "0"], ["explore"],
        ] {
            #expect(try TestSupport.runSynclab(arguments).status == 2, "\(arguments)")
        }
    }

    /// Swift seeds hashing per process: two processes catch hash order leaking into a draw.
    @Test func twoProcessesDrawTheSameRun() throws {
        let folder = try TestSupport.temporaryFolder("explore-processes")
        var traces: [Data] = []
        for name in ["first", "second"] {
            let trace = folder.appendingPathComponent("\(name).jsonl")
            let run = try TestSupport.runSynclab([
                "run", "Scenarios/explore/swarm.chaos", "--seed", "5", "--trace-out", trace.path,
            ])
            #expect(run.status != 2, "\(run.standardError)")
            traces.append(try Self.bytes(trace))
        }
        #expect(!traces[0].isEmpty)
        #expect(traces[0] == traces[1])
    }

    @Test func doublecheckAndRunOnce() throws {
        let (_, path) = try Self.file(ExplorerFixtures.lonely, name: "double")
        let double = try TestSupport.runSynclab(
            ["explore", path, "--seeds", "2", "--doublecheck"])
        #expect(double.status == 0, "\(double.standardOutput)")
        #expect(double.standardOutput.contains("doublecheck"))
        let once = try TestSupport.runSynclab(["run", path, "--seed", "3"])
        #expect(once.status == 0, "\(once.standardOutput)")
        #expect(once.standardOutput.contains("PASS"))
        #expect(once.standardOutput.contains("seed 3"))
    }
}
