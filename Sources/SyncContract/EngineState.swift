/// The state an engine shows the app (`expect DEVICE: state …`).
///
/// The common names (`not-running`, `signed-out`, `idle`, `syncing`, `waiting(network)`,
/// `waiting(retryAfter)`) mean the same on every engine; a profile lists its own others.
public struct EngineState: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var argument: String?

    public init(_ name: String, _ argument: String? = nil) {
        self.name = name
        self.argument = argument
    }

    public static let idle = EngineState("idle")
    public static let syncing = EngineState("syncing")
    public static let stopped = EngineState("stopped")
    public static let signedOut = EngineState("signed-out")
    public static let notRunning = EngineState("not-running")

    /// The state names every engine shares, as `expect … state` writes them.
    public static let commonNames = [
        "not-running", "signed-out", "idle", "syncing", "waiting(network)", "waiting(retryAfter)",
    ]

    /// Whether `expect … state` written as `self` holds for an engine in `actual`. A name
    /// without an argument also holds for that name with one: `syncing`, a common name
    /// (ENGINES.md §6.2), holds while mirror is in `syncing(import)`. With an argument, only
    /// the same state holds.
    public func isMet(by actual: EngineState) -> Bool {
        if argument == nil { return name == actual.name }
        return self == actual
    }

    public var description: String {
        if let argument { return "\(name)(\(argument))" }
        return name
    }
}
