import Harness
import Kernel

/// What a lab run produced: the input errors, or the run with every expectation, the
/// leftovers and the trace.
public struct LabResult: Sendable {
    /// The name the scenario ran under (its path, or the name given to inline text).
    public let file: String
    /// Every diagnostic as `FILE:LINE:COLUMN: severity: message`; with an error nothing ran.
    public let diagnostics: [String]
    /// The run; nil when the text did not check.
    public let run: RunResult?

    /// True when the text checked, the run ended without a runtime failure, and every
    /// expectation held.
    public var passed: Bool { run?.passed ?? false }

    /// Every `expect` line with what was found.
    public var expectations: [ExpectationResult] { run?.expectations ?? [] }

    /// Pending changes, missed pushes and unfired triggers left at the end.
    public var leftovers: [String] { run?.leftovers ?? [] }

    /// The run's trace as JSON Lines (empty when nothing ran).
    public var traceJSONLines: String { run?.trace.jsonLines() ?? "" }

    /// The engine it ran on, the seed, and the rules that fired (sorted).
    public var engine: String? { run?.engine }
    public var seed: UInt64? { run?.seed }
    public var firedRules: [String] { run?.firedRules ?? [] }

    /// Why it did not pass, one line each, in the CLI's words: input errors, failed
    /// expectations (`FILE:LINE: expectation failed: WANTED; found: ACTUAL`), the runtime
    /// failure, and the leftovers. Empty when it passed.
    public var problems: [String] {
        guard let run else { return diagnostics }
        var lines = run.expectations.filter { !$0.passed }.map {
            "\(file):\($0.line): expectation failed: \($0.wanted); found: \($0.found)"
        }
        if let failure = run.failure {
            lines.append("\(file):\(failure.line): runtime error: \(failure.message) "
                + "(at \(failure.time))")
        }
        if !lines.isEmpty { lines += run.leftovers.map { "leftover: \($0)" } }
        return lines
    }
}
