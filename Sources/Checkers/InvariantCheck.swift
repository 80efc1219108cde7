import SyncContract

/// The invariants the explorer checks once a run healed and settled. Which weaknesses of an
/// engine can explain a violation of one is the engine catalogue's to say (`Rule.explains`,
/// keyed by the raw values below).
///
/// The checkers stand apart from the engine: they read the world (stores, sync data, the
/// cloud's zones) and what the app saved, never the engine's reasoning.
public enum InvariantCheck: String, Hashable, Sendable, Codable, CaseIterable {
    /// Every device signed in, online and running holds exactly its account's records.
    case convergence
    /// A saved value no later save or deletion superseded is in iCloud and on every device.
    case lostChange = "lost-change"
    /// No device holds two models with the same identity values it did not make itself.
    case duplicateIdentity = "duplicate-identity"
    /// A record a device's saved deletion removed does not come back without a new insert.
    case resurrection
    /// The heal phase settles within its budget, and the run within its bounds.
    case liveness
    /// An `expect` line of the file's ordinary timeline failed.
    case expectation
    /// A statement could not run (for instance an action on a device that is not running).
    case runtime

    /// The weaknesses of an engine whose race can produce a violation of this check, in
    /// catalogue order.
    public func explainers(in catalogue: RuleCatalogue) -> [String] {
        catalogue.explainers(of: rawValue)
    }
}

/// One violation of an invariant in one run, classified against the rules that fired.
public struct InvariantViolation: Hashable, Sendable, Codable {
    public var check: InvariantCheck
    /// What was wrong, for people: names devices, records (with their labels) and values.
    public var message: String
    /// The engine's weaknesses that fired in the run and can explain it; empty for a new
    /// finding.
    public var explainedBy: [String]
    /// `expect …` lines that fail while the violation lasts, for a shrunk scenario.
    public var expectations: [String]

    public init(
        check: InvariantCheck, message: String, explainedBy: [String] = [],
        expectations: [String] = []
    ) {
        self.check = check
        self.message = message
        self.explainedBy = explainedBy
        self.expectations = expectations
    }

    /// Whether a known limitation that fired in the run accounts for it.
    public var isExplained: Bool { !explainedBy.isEmpty }
}

/// What a checker reports before classification: the check, a message, the expectations.
package struct CheckerFinding: Hashable, Sendable {
    package var check: InvariantCheck
    package var message: String
    package var expectations: [String]

    package init(_ check: InvariantCheck, _ message: String, expectations: [String] = []) {
        self.check = check
        self.message = message
        self.expectations = expectations
    }

    /// Explained when a weakness of the engine's catalogue that explains this check fired.
    package func classified(firedRules: [String], catalogue: RuleCatalogue) -> InvariantViolation {
        classified(explainedBy: check.explainers(in: catalogue).filter(firedRules.contains))
    }

    /// Classified with the fired weaknesses that explain its check, found by the caller.
    package func classified(explainedBy: [String]) -> InvariantViolation {
        InvariantViolation(
            check: check, message: message, explainedBy: explainedBy, expectations: expectations)
    }
}
