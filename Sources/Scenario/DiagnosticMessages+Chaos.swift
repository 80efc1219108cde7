/// The messages of the `chaos …` statements (docs/FORMAT.md §11 lists their IDs).
extension DiagnosticMessage {
    static func unknownChaosStatement(_ token: Token, suggestions: [String]) -> Self {
        guard token.kind == .identifier else {
            return expected("'workload', 'fault', 'mix' or 'heal'", found: token)
        }
        return Self(id: "unknown-chaos-statement",
            message: "unknown chaos statement \(token.quoted)", suggestions: suggestions)
    }

    static func unknownFault(_ token: Token, suggestions: [String]) -> Self {
        guard token.kind == .identifier else { return expected("a fault", found: token) }
        return Self(id: "unknown-fault", message: "unknown fault \(token.quoted)",
            suggestions: suggestions)
    }

    static func unknownOperation(_ token: Token, suggestions: [String]) -> Self {
        guard token.kind == .identifier else {
            return expected("an operation such as 'insert'", found: token)
        }
        return Self(id: "unknown-operation", message: "unknown operation \(token.quoted)",
            suggestions: suggestions)
    }

    static func faultTakesNoDuration(_ fault: String) -> Self {
        Self(id: "fault-takes-no-duration",
            message: "fault '\(fault)' is over at once; it takes no 'for' clause")
    }

    static func duplicateFault(_ fault: String) -> Self {
        Self(id: "duplicate-fault", message: "fault '\(fault)' is declared twice")
    }

    static func duplicateChaosEntry(_ name: String, list: String) -> Self {
        Self(id: "duplicate-chaos-entry", message: "'\(name)' is named twice \(list)")
    }

    static let chaosNeedsWorkload = Self(
        id: "chaos-needs-workload",
        message: "chaos statements need a 'chaos workload N operations …' line")

    static func chaosMixTotal(_ total: Probability) -> Self {
        Self(id: "invalid-chaos-mix",
            message: "the shares of 'chaos mix' add up to \(total), not 100%")
    }

    static func chaosDeviceSignedOut(_ device: String) -> Self {
        Self(id: "chaos-device-signed-out",
            message: "device '\(device)' is signed out; a workload's devices need an account")
    }

    static func chaosEntityNotSynchronized(_ entity: String) -> Self {
        Self(id: "chaos-entity-not-synchronized",
            message: "entity '\(entity)' is not synchronized ('sync none'); a workload acts "
                + "on synchronized entities")
    }

    static let chaosNothingToActOn = Self(
        id: "chaos-nothing-to-act-on",
        message: "the workload has no device signed into an account or no synchronized "
            + "entity to act on")

    static func chaosTooManyOperations(_ count: Int) -> Self {
        Self(id: "chaos-too-many-operations",
            message: "\(count) operations is more than the \(ChaosWorkload.maximumOperations) "
                + "one run may make")
    }

    static func healBudgetOutOfRange(_ budget: TimeSpan) -> Self {
        Self(id: "heal-budget-out-of-range",
            message: "heal budget \(budget) must be more than 0s and at most 1h (the bound "
                + "on 'settle')")
    }
}
