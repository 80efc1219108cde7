import Kernel

extension Array where Element == EngineEffect {
    /// Appends `.trace(kind:details:rules:)`, building `details` only when they are read:
    /// when `detailed` (pass `context.isTracing`), and always for a runtime error
    /// (`EngineEffect.runtimeErrorKind`), whose first detail is the run's failure message.
    /// Otherwise the effect carries no details; its kind and rules still reach the world, which
    /// counts the event and notes the rules that fired (the explorer explains findings by them).
    ///
    /// In an explorer's sweep nobody reads a trace's details, and building them (the lists,
    /// the texts of errors and times) then freeing them would be wasted (docs/BENCH.md).
    /// `details` must not change any state: it may not run.
    /// The kind is told from the runtime error's by its length first: comparing two strings
    /// through the runtime, for every trace of a sweep, cost more than most traces' effects.
    @inlinable
    public mutating func appendTrace(
        detailed: Bool, kind: String, details: @autoclosure () -> [TraceField], rules: [String]
    ) {
        let kept = detailed || EngineEffect.isRuntimeErrorKind(kind)
        append(.trace(kind: kind, details: kept ? details() : [], rules: rules))
    }
}
