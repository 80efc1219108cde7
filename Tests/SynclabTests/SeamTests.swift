import Foundation
import Testing
import TestSupport

/// The engine seam holds: the simulator's targets import the contract, never an engine.
/// No file under Device, Checkers, Harness, Reporting or the CLI imports an engine target or
/// names a type of one (comments may mention sds; code may not).
@Suite struct SeamTests {
    static let simulatorFolders = [
        "Sources/Device", "Sources/Checkers", "Sources/Harness", "Sources/Reporting",
        "Sources/synclab", "Sources/SyncLabCLI",
    ]

    /// Engine targets: every folder under Sources/ whose files conform to `SyncEngine`.
    static func engineTargets() throws -> [String] {
        let sources = TestSupport.repositoryRoot.appendingPathComponent("Sources")
        let folders = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
        return try folders.filter { folder in
            let files = try Self.swiftFiles(in: "Sources/" + folder)
            return try files.contains { try TestSupport.read($0).contains(": SyncEngine {") }
        }
    }

    static func swiftFiles(in folder: String) throws -> [String] {
        let root = TestSupport.repositoryRoot.appendingPathComponent(folder)
        let found = FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []
        return found.filter { $0.hasSuffix(".swift") }.sorted().map { folder + "/" + $0 }
    }

    /// The code of a file without its `//` comments (string literals are kept: they may name
    /// a mechanism, never a type).
    static func code(_ source: String) -> String {
        source.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard let range = line.range(of: "//") else { return String(line) }
            return String(line[..<range.lowerBound])
        }.joined(separator: "\n")
    }

    @Test func theSimulatorNamesNoEngine() throws {
        let engines = try Self.engineTargets()
        #expect(engines.contains("SDS"))
        // The top-level type names each engine target declares.
        var engineTypes: [String] = []
        for engine in engines {
            for path in try Self.swiftFiles(in: "Sources/" + engine) {
                for line in Self.code(try TestSupport.read(path)).split(separator: "\n") {
                    guard line.hasPrefix("public ") else { continue }
                    var words = line.split(separator: " ").map(String.init)
                    words.removeAll { $0 == "public" || $0 == "final" }
                    guard words.count >= 2,
                        ["struct", "enum", "class", "typealias", "protocol"].contains(words[0])
                    else { continue }
                    let name = words[1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                    if !name.isEmpty { engineTypes.append(String(name)) }
                }
            }
        }
        #expect(engineTypes.contains("SDSEngine"))
        var problems: [String] = []
        for folder in Self.simulatorFolders {
            for path in try Self.swiftFiles(in: folder) {
                let code = Self.code(try TestSupport.read(path))
                for engine in engines where code.contains("import \(engine)\n") {
                    problems.append("\(path) imports the engine target \(engine)")
                }
                let words = Set(code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
                for type in engineTypes.sorted() where words.contains(type) {
                    problems.append("\(path) names \(type)")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
