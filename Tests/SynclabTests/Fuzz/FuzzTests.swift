import Foundation
import Testing
import TestSupport

/// A bounded, seeded fuzz run of the built binary (the release one in CI, through
/// `SYNCLAB_BINARY`): bundled files mutated and scenarios generated from the grammar go
/// through `check`, `run`, `report` and `explore`, and every process must end by itself
/// with an exit status of 0, 1 or 2, no signal, and every error placed
/// (`FILE:LINE:COLUMN: error: …`, or `FILE:LINE: runtime error: …` for a run).
///
/// `FUZZ_SEED` and `FUZZ_INPUTS` (default 1000; CI runs 4000 on the release binary) change
/// the draw; a failure names the input file, kept in the temporary folder the message gives.
@Suite(.serialized) struct FuzzTests {
    static var seed: UInt64 {
        UInt64(ProcessInfo.processInfo.environment["FUZZ_SEED"] ?? "") ?? 20261201
    }
    static var inputCount: Int {
        Int(ProcessInfo.processInfo.environment["FUZZ_INPUTS"] ?? "") ?? 1000
    }

    @Test func mutatedAndGeneratedScenariosNeverCrashHangOrGoUnplaced() throws {
        let folder = try TestSupport.temporaryFolder("fuzz-\(Self.seed)")
        let corpusPaths = TestSupport.scenarioFiles() + Self.files(under: "Tests/Regressions", suffix: ".scenario")
        let corpus = try corpusPaths.map(TestSupport.read)
        try #require(corpus.count > 50)
        let mutator = ScenarioMutator(corpus: corpus)
        let generator = ScenarioGenerator()
        var random = FuzzRandom(seed: Self.seed)
        var paths: [String] = []
        for index in 0..<Self.inputCount {
            let text = index % 5 == 4
                ? generator.generate(index: index, random: &random)
                : mutator.mutate(random.pick(corpus), random: &random)
            let path = folder.appendingPathComponent(String(format: "f%05d.scenario", index)).path
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            paths.append(path)
        }
        var findings = FuzzFindings()
        var checked: [String] = []
        for batch in paths.chunked(100) {
            let outputs = FuzzRunner.run(["check"], batch, deadline: 60, findings: &findings)
            let passed = Set(outputs.filter { $0.hasPrefix("OK ") }.map { String($0.dropFirst(3)) })
            checked += batch.filter(passed.contains)
        }
        // A useful fuzz run reaches the simulation, not only the parser.
        #expect(checked.count > Self.inputCount / 10, "only \(checked.count) inputs passed check")
        for batch in checked.chunked(25) {
            _ = FuzzRunner.run(["run"], batch, deadline: 120, findings: &findings)
        }
        for (number, batch) in checked.chunked(10).enumerated() where number % 8 == 0 {
            let out = folder.appendingPathComponent("report-\(number)").path
            let format = number % 16 == 0 ? ["--format", "html"] : []
            _ = FuzzRunner.run(["report", "--out", out] + format, batch, deadline: 120, findings: &findings)
        }
        print("fuzz: \(paths.count) inputs, \(checked.count) passed check and ran; seed \(Self.seed)")
        #expect(findings.items.count == 0, "inputs in \(folder.path):\n\(findings.summary)")
    }

    @Test func mutatedChaosFilesNeverCrashHangOrGoUnplaced() throws {
        let folder = try TestSupport.temporaryFolder("fuzz-chaos-\(Self.seed)")
        let chaos = try Self.files(under: "Scenarios/explore", suffix: ".chaos").map(TestSupport.read)
        try #require(!chaos.isEmpty)
        let mutator = ScenarioMutator(corpus: chaos)
        var random = FuzzRandom(seed: Self.seed ^ 0xC4A0_5)
        var findings = FuzzFindings()
        for index in 0..<max(10, Self.inputCount / 60) {
            let path = folder.appendingPathComponent(String(format: "c%04d.chaos", index)).path
            try mutator.mutate(random.pick(chaos), random: &random).write(toFile: path, atomically: false, encoding: .utf8)
            _ = FuzzRunner.run(["explore", "--seeds", "2"], [path], deadline: 60, findings: &findings)
        }
        #expect(findings.items.count == 0, "inputs in \(folder.path):\n\(findings.summary)")
    }

    static func files(under folder: String, suffix: String) -> [String] {
        let base = TestSupport.repositoryRoot.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { "\(folder)/\($0)" }
    }
}

/// What the fuzz run found: one line per input that crashed, hung or printed an unplaced error.
struct FuzzFindings {
    var items: [String] = []

    var summary: String { items.prefix(20).joined(separator: "\n") }
}

enum FuzzRunner {
    /// Runs `synclab ARGUMENTS FILES…`; a batch that misbehaves is run again file by file to
    /// name the input. Returns the output lines.
    static func run(
        _ arguments: [String], _ files: [String], deadline: Double, findings: inout FuzzFindings
    ) -> [String] {
        let subcommand = arguments[0]
        let rest = Array(arguments.dropFirst())
        let invocation = subcommand == "report" || subcommand == "explore"
            ? [subcommand] + files + rest : [subcommand] + rest + files
        guard let result = try? TestSupport.run(TestSupport.synclabBinary, invocation, deadline: deadline) else {
            findings.items.append("could not start synclab \(invocation.joined(separator: " "))")
            return []
        }
        let lines = result.output.split(separator: "\n").map(String.init)
        let problem = problem(of: result, lines: lines)
        if let problem {
            if files.count == 1 {
                findings.items.append("\(files[0]): synclab \(subcommand): \(problem)")
            } else {
                for file in files {
                    _ = run(arguments, [file], deadline: min(deadline, 30), findings: &findings)
                }
            }
        }
        return lines
    }

    static func problem(of result: TestSupport.BoundedOutput, lines: [String]) -> String? {
        switch result.ending {
        case .timedOut: return "did not end in time (hang)"
        case .signalled(let signal): return "crashed with signal \(signal): \(lines.suffix(3).joined(separator: " | "))"
        case .exited(let status) where ![0, 1, 2].contains(status): return "exit status \(status)"
        case .exited: break
        }
        if let line = lines.first(where: isUnplacedError) { return "unplaced error: \(line)" }
        return nil
    }

    /// An error line that does not start with the place it is about.
    static func isUnplacedError(_ line: String) -> Bool {
        if line.hasPrefix("error:") { return true }
        if let range = line.range(of: ": runtime error: ") {
            return !isPlace(line[..<range.lowerBound], columns: false)
        }
        if let range = line.range(of: ": error: ") {
            return !isPlace(line[..<range.lowerBound], columns: true)
        }
        return false
    }

    /// `PATH:LINE:COLUMN` (or `PATH:LINE` without columns), numbers from 1.
    static func isPlace(_ text: Substring, columns: Bool) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let numbers = columns ? 2 : 1
        guard parts.count == numbers + 1, !parts[0].isEmpty else { return false }
        return parts.dropFirst().allSatisfy { Int($0).map { $0 >= 1 } ?? false }
    }
}

extension Array {
    func chunked(_ size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
