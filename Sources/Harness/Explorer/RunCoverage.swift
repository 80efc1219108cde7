/// What a run reached, as a set of named features: the cheap signal a guided sweep keeps
/// worlds by (`CoverageGuide`). Engines cite a rule for every decision, so the rules fired
/// stand for the paths taken; how many devices took one, the order of the probe points, the
/// refusals met, the kinds of steps run, how close the checks came and the checks violated
/// add what rule IDs alone do not tell.
public struct RunCoverage: Hashable, Sendable {
    /// Sorted feature names: `rule:OBX-12`, `rule:OBX-12x2` (two devices fired it, `x3`
    /// for three or more), `probes:upload.start>download.page.1` (a device passed one probe
    /// point right after the other), `refused:zoneNotFound`, `step:kill`,
    /// `close:lost-change:3-4` (what the state checks found when the heal began),
    /// `close:liveness` (the heal's syncs and settle took more than half of its bound),
    /// `check:convergence:new`.
    public var features: [String]

    /// A coverage of the given features (sorted here).
    public init(features: [String]) {
        self.features = features.sorted()
    }

    init(run: ChaosRun, violations: [InvariantViolation]) {
        var found = Set<String>()
        var devicesByRule: [String: Int] = [:]
        for rules in run.world.firedRules {
            for rule in rules {  // tidy: ordered only counted, then sorted below
                devicesByRule[rule, default: 0] += 1
            }
        }
        for (rule, count) in devicesByRule {  // tidy: ordered into a set, sorted below
            found.insert("rule:" + rule)
            if count > 1 { found.insert("rule:\(rule)x\(min(count, 3))") }
        }
        for refused in run.world.refusals {
            for code in refused.codes {
                found.insert("refused:\(code)")
            }
        }
        for step in run.steps { found.insert("step:" + Self.kind(of: step.action)) }
        for pair in run.world.probePairs?.sorted ?? [] { found.insert("probes:" + pair) }
        found.formUnion(run.nearMisses)
        for violation in violations {
            found.insert("check:\(violation.check.rawValue):"
                + (violation.isExplained ? "explained" : "new"))
        }
        features = found.sorted()
    }

    /// The kind of a drawn step, without its device, label or values.
    static func kind(of action: ChaosAction) -> String {
        switch action {
        case .insert: return "insert"
        case .update: return "update"
        case .delete: return "delete"
        case .batchDelete: return "batch-delete"
        case .sharing(_, let step): return String(step.text.prefix { $0 != " " })
        case .device(_, let operation): return operation.rawValue
        case .signIn: return "sign-in"
        case .throttle: return "throttle"
        case .throttleUpload: return "throttle-upload"
        case .outage: return "outage"
        case .expireTokens: return "expire-tokens"
        case .deleteZone: return "delete-zone"
        case .userDeleteZone: return "user-delete-zone"
        case .quota(_, let full): return full ? "quota-full" : "quota-ok"
        case .pushDrop: return "push-drop"
        case .latency: return "latency"
        case .reject: return "reject"
        case .accept: return "accept"
        case .wait: return "wait"
        case .settle: return "settle"
        case .trigger(_, let probe, _): return "race@" + probe
        }
    }
}
