import Foundation
import Testing

/// Runs a Python 3 script as an independent reference implementation for a test.
///
/// Tests may use Foundation; Sources may not. Python's hashlib shares no code with our
/// SHA-256, so agreement on hundreds of inputs is real evidence.
enum PythonReference {
    /// Whether `/usr/bin/env python3` runs; tests that need it are skipped otherwise.
    static let isAvailable: Bool = (try? run(script: "print('ok')", input: "")) == "ok\n"

    /// Runs `script` with `input` on standard input and returns its standard output.
    ///
    /// The script reads all of its input before writing, so writing everything first and
    /// then reading cannot deadlock on the pipes.
    static func run(script: String, input: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PythonFailure(status: process.terminationStatus)
        }
        return String(decoding: output, as: UTF8.self)
    }

    struct PythonFailure: Error {
        let status: Int32
    }

    static let missingMessage = Comment(rawValue:
        "python3 not found via /usr/bin/env: the comparison with an independent implementation "
        + "(Python's hashlib) is skipped; install python3 to run it")
}
