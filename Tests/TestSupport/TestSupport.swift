import Foundation
#if canImport(Glibc)
import Glibc
#endif

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

    /// The `synclab` binary of the build the tests run in, or the one `SYNCLAB_BINARY` names
    /// (CI points it at the release build, so subprocess tests also catch `-O`-only bugs).
    public static var synclabBinary: URL {
        if let path = ProcessInfo.processInfo.environment["SYNCLAB_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path, relativeTo: repositoryRoot).standardizedFileURL
        }
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
        process.environment = childEnvironment()
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

    /// The environment for a child process: without the folders of a simulated device whose
    /// code another test runs at this moment (`XDG_DATA_HOME`, `XDG_CACHE_HOME`), which a
    /// `swift build` would otherwise use as its caches.
    public static func childEnvironment() -> [String: String] {
        let marker = "/synclab-\(ProcessInfo.processInfo.processIdentifier)/"
        return ProcessInfo.processInfo.environment.filter { !$0.value.contains(marker) }
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

// MARK: Processes with a deadline

extension TestSupport {
    /// How a process with a deadline ended.
    public enum Ending: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it (a crash: a trap, a segmentation fault, …).
        case signalled(Int32)
        /// It was still running at the deadline and was killed.
        case timedOut
    }

    /// What a process with a deadline left.
    public struct BoundedOutput: Sendable {
        public var ending: Ending
        /// Standard output and standard error, interleaved as written.
        public var output: String
    }

    /// Runs a program in the repository root; kills it if it runs longer than `seconds`
    /// (wall clock: this bounds the test, it measures nothing). Output goes through a file,
    /// so a chatty process cannot block on a full pipe.
    public static func run(
        _ executable: URL, _ arguments: [String], deadline seconds: Double,
        environment: [String: String] = [:]
    ) throws -> BoundedOutput {
        let log = FileManager.default.temporaryDirectory
            .appendingPathComponent("synclab-bounded-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0...UInt64.max)).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        var merged = childEnvironment()
        // A crash should end the process at once, not spend a second on a backtrace.
        merged["SWIFT_BACKTRACE"] = "enable=no"
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let end = Date().addingTimeInterval(seconds)
        var timedOut = false
        while process.isRunning {
            if Date() > end {
                timedOut = true
                process.terminate()
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(2_000)
        }
        process.waitUntilExit()
        try handle.close()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let ending: Ending
        if timedOut {
            ending = .timedOut
        } else if process.terminationReason == .uncaughtSignal {
            ending = .signalled(process.terminationStatus)
        } else {
            ending = .exited(process.terminationStatus)
        }
        return BoundedOutput(ending: ending, output: output)
    }
}
