import Kernel
import LocalStore

extension EngineEvent {
    /// `.resume(.sole)`, built once: an engine event is large, and building one for every
    /// resume cleared and copied all of it. Not inlined, so the constant is not folded back.
    @usableFromInline
    static let soleResume = prebuiltResume(.sole)

    @usableFromInline
    @inline(never)
    static func prebuiltResume(_ ticket: ProbeTicket) -> EngineEvent { .resume(ticket) }
}

extension EngineContext {
    /// Resumes in line, within the event, the probe points its effects pass: in the order
    /// they were passed, as the world would deliver their `.resume`s, while nothing in the
    /// effects could come before a `.resume` (a timer due at once, an ended waiting action).
    ///
    /// At most `passes` of them (the world's grant: nothing else can come between); `passes`
    /// comes back as how many were resumed, always the first probe effects from `start` on.
    @inlinable
    static func resumeInLine(
        _ passes: inout Int, context: inout EngineContext, effects: inout [EngineEffect],
        from start: Int,
        _ body: (borrowing EngineEvent, inout EngineContext, inout [EngineEffect]) -> Void
    ) {
        let allowed = passes
        passes = 0
        var checked = start
        var next = start
        while passes < allowed {
            guard let ticket = nextResumable(effects, checked: &checked, next: &next) else {
                return
            }
            passes += 1
            if ticket == .sole {
                body(EngineEvent.soleResume, &context, &effects)
            } else {
                body(.resume(ticket), &context, &effects)
            }
        }
    }

    /// The ticket of the first probe effect from `next` on, unless an effect from `checked`
    /// on could come before its `.resume`; both positions move past what was read.
    @inlinable
    static func nextResumable(
        _ effects: [EngineEffect], checked: inout Int, next: inout Int
    ) -> ProbeTicket? {
        effects.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            while checked < buffer.count {
                switch base[checked] {
                case .setTimer(_, let delay) where delay == .zero: return nil
                case .completed, .failed: return nil
                default: checked += 1
                }
            }
            while next < buffer.count {
                let position = next
                next += 1
                if case .probe(_, let ticket) = base[position] { return ticket }
            }
            return nil
        }
    }
}
