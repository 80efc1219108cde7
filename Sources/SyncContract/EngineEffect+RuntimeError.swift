import Kernel

extension EngineEffect {
    /// The trace kind of a runtime error an engine reports: the world records it and ends the
    /// run with the message as its runtime failure (the CloudKit module reports an app's
    /// async code leaving the kernel this way, instead of crashing or hanging).
    public static let runtimeErrorKind = "engine.runtime-error"

    /// An effect that ends the run with `message` as its runtime failure.
    public static func runtimeError(_ message: String) -> EngineEffect {
        .trace(kind: runtimeErrorKind, details: [TraceField("message", .string(message))],
            rules: [])
    }
}
