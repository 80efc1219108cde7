import Kernel
import SyncContract

extension Array where Element == EngineEffect {
    /// `appendTrace(detailed:kind:details:rules:)` for sds's own kinds, none of which is the
    /// runtime error's (`EngineEffect.runtimeErrorKind`), whose details are always kept: the
    /// same effect without comparing the kind with that one, a call into the string
    /// comparison for every trace of an explorer's sweep (the strings always differ).
    @inline(__always)
    mutating func addTrace(
        detailed: Bool, kind: String, details: @autoclosure () -> [TraceField], rules: [String]
    ) {
        assert(kind != EngineEffect.runtimeErrorKind, "sds: a runtime error traced as a rule")
        append(.trace(kind: kind, details: detailed ? details() : [], rules: rules))
    }
}
