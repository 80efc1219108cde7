import Engines
import Foundation
import SyncLab
import Testing
import TestSupport
import Kernel

/// The README's "From your own tests" section, taken at its word: a scratch package made of
/// exactly its `.package(…)` line, its `.product(…)` line and its Swift test builds against
/// a copy of this repository and passes. Also the library API in process.
@Suite struct LibraryConsumerTests {
    /// The section's text, up to the next section.
    static func section() throws -> String {
        let readme = try TestSupport.read("README.md")
        let start = try #require(readme.range(of: "## From your own tests\n"))
        let rest = readme[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// The fenced blocks of the section, with their info string (`swift` or empty).
    static func blocks(_ text: String) -> [(info: String, body: String)] {
        var blocks: [(String, String)] = []
        var current: (info: String, lines: [String])?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let open = current {
                    blocks.append((open.info, open.lines.joined(separator: "\n")))
                    current = nil
                } else {
                    current = (String(line.dropFirst(3)), [])
                }
            } else {
                current?.lines.append(String(line))
            }
        }
        return blocks
    }

    @Test func theSectionHasThePackageLineTheProductLineAndOneSwiftTest() throws {
        let blocks = Self.blocks(try Self.section())
        #expect(blocks.filter { $0.body.contains(".package(") }.count == 1)
        #expect(blocks.filter { $0.body.contains(".product(name: \"SyncLab\"") }.count == 1)
        let swift = blocks.filter { $0.info == "swift" }
        #expect(swift.count == 1)
        #expect(swift.first?.body.contains("import SyncLab") == true)
        #expect(swift.first?.body.contains("@Test") == true)
    }

    /// Builds the README's consumer package against a copy of this repository (sources and
    /// manifest only) and runs its test: the example compiles and passes from outside.
    @Test(.timeLimit(.minutes(20)))
    func theReadmeExampleBuildsAndPassesInAnotherPackage() throws {
        let blocks = Self.blocks(try Self.section())
        let packageLine = try #require(blocks.first { $0.body.contains(".package(") }?.body)
        let productLine = try #require(blocks.first { $0.body.contains(".product(") }?.body)
        let test = try #require(blocks.first { $0.info == "swift" }?.body)
        let root = try TestSupport.temporaryFolder("consumer")
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        // The README's path is "../SyncLab": the copy sits next to the consumer.
        let library = root.appendingPathComponent("SyncLab")
        try manager.createDirectory(at: library, withIntermediateDirectories: true)
        for item in ["Package.swift", "Sources", "Tests"] {
            try manager.copyItem(
                at: TestSupport.repositoryRoot.appendingPathComponent(item),
                to: library.appendingPathComponent(item))
        }
        let consumer = root.appendingPathComponent("Consumer")
        let tests = consumer.appendingPathComponent("Tests/ConsumerTests")
        try manager.createDirectory(at: tests, withIntermediateDirectories: true)
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "Consumer",
                dependencies: [
                    \(packageLine)
                ],
                targets: [
                    .testTarget(name: "ConsumerTests", dependencies: [
                        \(productLine)
                    ]),
                ]
            )

            """
        try manifest.write(to: consumer.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try test.write(to: tests.appendingPathComponent("ReadmeTests.swift"), atomically: true, encoding: .utf8)
        let (status, output) = try Self.swift(["test"], in: consumer)
        #expect(status == 0, "swift test in the consumer package failed:\n\(output.suffix(4000))")
        #expect(output.contains("anOfflineEditSurvivesAnotherDevicesEdit"))
    }

    /// Runs `swift ARGUMENTS` in a folder, standard output and error together (one pipe, so
    /// neither can fill up while the other is read).
    static func swift(_ arguments: [String], in folder: URL) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift"] + arguments
        process.currentDirectoryURL = folder
        process.environment = TestSupport.childEnvironment()
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    // MARK: The API in process

    @Test func inlineTextRunsWithItsExpectationsLeftoversAndTrace() {
        let result = ScenarioLab().run("""
            scenario "One insert reaches the other device"
            entity Note {
              title: String = ""
            }
            account alice
            device phone on alice
            device laptop on alice
            phone: insert Note n1 title="A"
            settle
            expect laptop: n1 title="A"
            expect laptop: n1 title="B"
            """, file: "one.scenario", seed: 3)
        #expect(!result.passed)
        #expect(result.seed == 3)
        #expect(result.engine == "sds")
        #expect(result.expectations.map(\.passed) == [true, false])
        #expect(result.problems.first?.hasPrefix("one.scenario:11: expectation failed:") == true)
        #expect(TraceEvent.decodedLines(result.traceJSONLines).contains { $0.kind == "run.start" })
        #expect(result.firedRules.contains("SYNC-1"))
    }

    @Test func inputErrorsComeBackPlacedAndNothingRuns() {
        let result = ScenarioLab().run("scenario \"x\"\nengine sdz\n", file: "bad.scenario")
        #expect(result.run == nil)
        #expect(!result.passed)
        #expect(result.diagnostics.first?.hasPrefix("bad.scenario:2:8: error: unknown engine 'sdz'") == true)
        let unknown = ScenarioLab().run("scenario \"x\"\n", engine: "nope")
        #expect(unknown.diagnostics.first?.contains("unknown engine 'nope'") == true)
    }

    @Test func registeringAnEngineChangesThisLabOnly() {
        var lab = ScenarioLab(engines: EngineRegistry())
        #expect(lab.engines.names.isEmpty)
        lab.register(EngineRegistry.bundled.profiles[0])
        #expect(lab.engines.names == ["sds"])
        #expect(ScenarioLab().engines.names == EngineRegistry.bundled.names)
    }
}
