import Foundation
import TestSupport
import Testing

/// Every scenario the README shows in full, run as written: a reader copies them first, so
/// each must pass on every engine it lists (its `engines` line, else its one engine).
@Suite struct ReadmeScenarioTests {
    /// The README's fenced blocks that are whole scenario files (they start with `scenario`).
    static func scenarios() throws -> [String] {
        let readme = try TestSupport.read("README.md")
        var blocks: [String] = []
        var current: [Substring]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let lines = current {
                    if lines.first?.hasPrefix("scenario \"") == true {
                        blocks.append(lines.joined(separator: "\n") + "\n")
                    }
                    current = nil
                } else {
                    current = []
                }
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func theReadmeShowsTheTourStoryAndItsComparison() throws {
        let blocks = try Self.scenarios()
        #expect(blocks.count >= 2, "\(blocks.count) scenario blocks")
        #expect(blocks.contains { $0.contains("\nengines sds, naive\n") })
    }

    @Test func everyReadmeScenarioPassesOnEveryEngineItLists() throws {
        let folder = try TestSupport.temporaryFolder("readme-scenarios")
        for (index, block) in try Self.scenarios().enumerated() {
            let file = folder.appendingPathComponent("readme-\(index).scenario")
            try Data(block.utf8).write(to: file)
            let listed = block.split(separator: "\n").first { $0.hasPrefix("engines ") }
            let engines = listed.map {
                $0.dropFirst("engines ".count).split(separator: ",")
                    .map { $0.trimmingCharacters(in: .whitespaces) }
            } ?? ["sds"]
            for engine in engines {
                let run = try TestSupport.runSynclab(["run", file.path, "--engine", engine])
                #expect(run.status == 0,
                    "block \(index) on \(engine):\n\(run.standardOutput)\(run.standardError)")
            }
            guard listed != nil else { continue }
            // `compare` with no `--engines` runs the listed engines, and each meets its own.
            let compare = try TestSupport.runSynclab(["compare", file.path])
            #expect(compare.status == 0,
                "block \(index):\n\(compare.standardOutput)\(compare.standardError)")
            #expect(compare.standardOutput.contains("engines: \(engines.joined(separator: ", "))\n"),
                "\(compare.standardOutput)")
        }
    }
}
