import LocalStore

/// Why a device's store cannot load under an engine (an engine whose framework validates the
/// model when the store loads, like SwiftData's CloudKit mirroring): the error the app would
/// get, word for word, and the schema items it names, so the checker can place a warning at
/// each of them and the device can show the failure at run time.
///
/// It is a runtime state, not an input error: the same file still runs on other engines.
public struct StoreLoadFailure: Hashable, Sendable {
    /// One offending schema item: the entity, the property if the item is one, the line the
    /// error lists, and the header of the section it is listed under.
    public struct Finding: Hashable, Sendable {
        public var entity: String
        public var property: String?
        public var line: String
        public var section: String

        public init(entity: String, property: String?, line: String, section: String) {
            self.entity = entity
            self.property = property
            self.line = line
            self.section = section
        }
    }

    /// The error's domain (`NSCocoaErrorDomain`).
    public var domain: String
    /// The error's code (`134060`).
    public var code: Int
    /// The error's localized description (`A Core Data error occurred.`).
    public var localizedDescription: String
    /// `NSLocalizedFailureReason`, exactly as the framework writes it.
    public var failureReason: String
    /// The items the failure reason lists, in its order.
    public var findings: [Finding]
    /// The catalogue rules that decide the failure, for the trace and the warnings.
    public var rules: [String]

    public init(
        domain: String, code: Int, localizedDescription: String, failureReason: String,
        findings: [Finding], rules: [String]
    ) {
        self.domain = domain
        self.code = code
        self.localizedDescription = localizedDescription
        self.failureReason = failureReason
        self.findings = findings
        self.rules = rules
    }

    /// The error as Foundation prints it: `Error Domain=D Code=N "…" UserInfo={…}`.
    public var errorDescription: String {
        "Error Domain=\(domain) Code=\(code) \"\(localizedDescription)\" "
            + "UserInfo={NSLocalizedFailureReason=\(failureReason)}"
    }
}
