/// What a run leaves behind: work the script started that did not get done.
///
/// A run can pass while a change never left its device (a throttle of 2,000,000 hours makes
/// `settle` end, since nothing is due within its hour). The account below is printed at the
/// end of every run that has one, written into the trace's `run.end` and JUnit's
/// `system-out`, so such a run never ends quietly. Every list is sorted (device order is
/// declaration order, labels and names by their UTF-8 bytes), never in hashing order.
public struct Leftovers: Hashable, Sendable {
    /// A device's changes that were not uploaded: models (by label, else record name) and
    /// deletions of records.
    public struct NotUploaded: Hashable, Sendable {
        public var device: String
        /// Models with changes not uploaded, by label or record name, sorted.
        public var models: [String]
        /// Records whose deletion was not uploaded, by label or record name, sorted.
        public var deletions: [String]

        public init(device: String, models: [String], deletions: [String]) {
            self.device = device
            self.models = models
            self.deletions = deletions
        }

        public var count: Int { models.count + deletions.count }
    }

    /// Records a device set aside after CloudKit rejected them (SCHEMA-4, ERR-7), or
    /// downloaded records it keeps aside (DL-3, DL-4).
    public struct SetAside: Hashable, Sendable {
        public var device: String
        /// Rejected uploads, by label or record name, with CloudKit's error code.
        public var rejected: [String]
        /// Downloaded records kept aside, by label or record name.
        public var keptAside: [String]

        public init(device: String, rejected: [String], keptAside: [String]) {
            self.device = device
            self.rejected = rejected
            self.keptAside = keptAside
        }
    }

    /// A `when DEVICE reaches PROBE [N]:` line whose probe point was not reached often enough.
    public struct UnfiredTrigger: Hashable, Sendable {
        public var line: Int
        public var device: String
        public var probe: String
        /// How many more passes it was waiting for.
        public var remaining: Int

        public init(line: Int, device: String, probe: String, remaining: Int) {
            self.line = line
            self.device = device
            self.probe = probe
            self.remaining = remaining
        }
    }

    /// A script action that did not complete: it failed (with the engine's reason) or was
    /// still under way when the run ended.
    public struct UnfinishedAction: Hashable, Sendable {
        public var line: Int
        public var device: String
        public var action: String
        /// Why it did not complete: the engine's reason, or that it was still running.
        public var reason: String
        /// True when the engine ended it as failed; false when it was still under way.
        public var failed: Bool

        public init(line: Int, device: String, action: String, reason: String, failed: Bool) {
            self.line = line
            self.device = device
            self.action = action
            self.reason = reason
            self.failed = failed
        }
    }

    public var notUploaded: [NotUploaded] = []
    public var setAside: [SetAside] = []
    /// Devices that missed a push while offline and have not received it since.
    public var missedPushes: [String] = []
    /// Devices whose app is not running at the end.
    public var notRunning: [String] = []
    public var unfiredTriggers: [UnfiredTrigger] = []
    public var unfinishedActions: [UnfinishedAction] = []

    public init() {}

    public var isEmpty: Bool { lines.isEmpty }

    /// One line per leftover, in a fixed order: per device (declaration order) its changes,
    /// records set aside, missed push and whether it runs; then triggers and actions by line.
    public var lines: [String] {
        var lines: [String] = []
        for entry in notUploaded where entry.count > 0 {
            var names = entry.models
            names += entry.deletions.map { "deletion of \($0)" }
            lines.append("\(entry.device): \(entry.count) change(s) not uploaded: "
                         + names.joined(separator: ", "))
        }
        for entry in setAside {
            if !entry.rejected.isEmpty {
                lines.append("\(entry.device): \(entry.rejected.count) record(s) set aside after "
                             + "a rejection: " + entry.rejected.joined(separator: ", "))
            }
            if !entry.keptAside.isEmpty {
                lines.append("\(entry.device): \(entry.keptAside.count) downloaded record(s) "
                             + "kept aside: " + entry.keptAside.joined(separator: ", "))
            }
        }
        lines += missedPushes.map { "\($0): a push missed while offline" }
        lines += notRunning.map { "\($0): not running" }
        for trigger in unfiredTriggers {
            lines.append("line \(trigger.line): trigger at '\(trigger.probe)' of "
                         + "'\(trigger.device)' never fired")
        }
        for action in unfinishedActions {
            let outcome = action.failed ? "failed" : "did not complete"
            lines.append("line \(action.line): '\(action.device): \(action.action)' \(outcome): "
                         + action.reason)
        }
        return lines
    }
}
