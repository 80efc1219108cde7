import Kernel

extension EngineEffect {
    /// The trace kind of a runtime error an engine reports: the world records it and ends the
    /// run with the message as its runtime failure (the CloudKit module reports an app's
    /// async code leaving the kernel this way, instead of crashing or hanging).
    public static let runtimeErrorKind = "engine.runtime-error"

    /// Whether a trace kind is `runtimeErrorKind`, lengths compared first: nearly every kind
    /// differs in length, and that comparison stays in line where the strings' would not.
    @inlinable @inline(__always)
    public static func isRuntimeErrorKind(_ kind: String) -> Bool {
        kind.utf8.count == runtimeErrorKind.utf8.count && kind == runtimeErrorKind
    }

    /// An effect that ends the run with `message` as its runtime failure.
    public static func runtimeError(_ message: String) -> EngineEffect {
        .trace(kind: runtimeErrorKind, details: [TraceField("message", .string(message))],
            rules: [])
    }
}
