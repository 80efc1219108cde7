import Foundation

/// os.log's log object (Apple's `OSLog`), for `os_log(_:log:type:_:)` and `Logger(_:)`: it keeps
/// its subsystem and category and, like every log here, writes nothing (SyncLab's trace is the
/// run's record).
public final class OSLog: NSObject, @unchecked Sendable {
    // `@unchecked`: immutable after init.
    /// The shared default log.
    public static let `default` = OSLog(subsystem: "", category: "")
    /// A log that drops every message.
    public static let disabled = OSLog(subsystem: "", category: "", enabled: false)

    let subsystem: String
    let category: String
    private let enabled: Bool

    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
        enabled = true
    }

    private init(subsystem: String, category: String, enabled: Bool) {
        self.subsystem = subsystem
        self.category = category
        self.enabled = enabled
    }

    /// Whether a message of this level would be recorded: false for `.disabled` only.
    public func isEnabled(type: OSLogType) -> Bool { enabled }
}
