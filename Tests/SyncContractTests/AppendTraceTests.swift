import Kernel
import SyncContract
import Testing

/// `appendTrace(detailed:kind:details:rules:)`: the details are built only when read.
@Suite struct AppendTraceTests {
    @Test func detailsAreBuiltOnlyWhenTheTraceIsKept() {
        var built = 0
        func details() -> [TraceField] {
            built += 1
            return [TraceField("record", .string("n1"))]
        }
        var effects: [EngineEffect] = []
        effects.appendTrace(detailed: true, kind: "upload.sent", details: details(), rules: ["SYNC-1"])
        effects.appendTrace(detailed: false, kind: "upload.sent", details: details(), rules: ["SYNC-1"])
        #expect(built == 1)
        guard case .trace(let kind, let kept, let rules) = effects[0],
              case .trace(let otherKind, let dropped, let otherRules) = effects[1]
        else { Issue.record("not two traces"); return }
        #expect(kept == [TraceField("record", .string("n1"))] && dropped.isEmpty)
        #expect(kind == otherKind && rules == otherRules && rules == ["SYNC-1"])
    }

    /// A runtime error's message is the run's failure: it is kept even without a trace.
    @Test func aRuntimeErrorKeepsItsMessage() {
        var effects: [EngineEffect] = []
        effects.appendTrace(
            detailed: false, kind: EngineEffect.runtimeErrorKind,
            details: [TraceField("message", .string("boom"))], rules: [])
        guard case .trace(_, let details, _) = effects[0] else { Issue.record("not a trace"); return }
        #expect(details == [TraceField("message", .string("boom"))])
    }

    /// Told by the whole kind, not its length alone: a kind of the same length is not one.
    @Test func onlyTheRuntimeErrorsKindIsOne() {
        let kind = EngineEffect.runtimeErrorKind
        #expect(EngineEffect.isRuntimeErrorKind(kind))
        #expect(EngineEffect.isRuntimeErrorKind(String(kind.reversed().reversed())))
        let sameLength = String(repeating: "x", count: kind.utf8.count)
        #expect(!EngineEffect.isRuntimeErrorKind(sameLength))
        #expect(!EngineEffect.isRuntimeErrorKind(kind + "s"))
        #expect(!EngineEffect.isRuntimeErrorKind(""))
        var effects: [EngineEffect] = []
        effects.appendTrace(
            detailed: false, kind: sameLength,
            details: [TraceField("message", .string("kept?"))], rules: [])
        guard case .trace(_, let details, _) = effects[0] else { Issue.record("not a trace"); return }
        #expect(details.isEmpty)
    }
}
