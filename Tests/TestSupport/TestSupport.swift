import Foundation

/// Shared helpers for the test targets: where the repository is, its scenario files, and
/// running the real `synclab` binary.
public enum TestSupport {
    /// The repository's root folder, found from this file's path.
    public static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// Every `.scenario` file below `Scenarios/` (or a sub-folder), sorted, as paths
    /// relative to the repository root.
    public static func scenarioFiles(under folder: String = "Scenarios") -> [String] {
        let base = repositoryRoot.appendingPathComponent(folder)
        let names = FileManager.default.enumerator(atPath: base.path)?.allObjects as? [String] ?? []
        return names.filter { $0.hasSuffix(".scenario") }.sorted().map { "\(folder)/\($0)" }
    }

    /// The contents of a file of the repository.
    public static func read(_ relativePath: String) throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent(relativePath), encoding: .utf8)
    }

    /// The `synclab` binary of the build the tests run in.
    public static var synclabBinary: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0])
            .deletingLastPathComponent().appendingPathComponent("synclab")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        var bundle = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = bundle.appendingPathComponent("synclab")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            bundle.deleteLastPathComponent()
        }
        return repositoryRoot.appendingPathComponent(".build/debug/synclab")
    }

    /// What a finished process left.
    public struct ProcessOutput: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
    }

    /// Runs `synclab` with arguments, in the repository root, and waits for it.
    public static func runSynclab(_ arguments: [String]) throws -> ProcessOutput {
        try run(synclabBinary, arguments)
    }

    /// Runs a program with arguments in the repository root and waits for it.
    public static func run(_ executable: URL, _ arguments: [String], input: String? = nil) throws -> ProcessOutput {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        let output = Pipe()
        let error = Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
        try standardInput.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProcessOutput(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self)
        )
    }

    /// A fresh temporary folder for one test.
    public static func temporaryFolder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("synclab-tests-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
