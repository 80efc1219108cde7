import Kernel

/// One drawn step of a fault phase: when it runs, counted from the start of the phase, what
/// it does, and the group it is removed with when shrinking (a fault and the action that
/// lifts it form one group; an operation is a group of its own).
struct ChaosStep: Hashable, Sendable {
    var offset: SimTime
    var action: ChaosAction
    var group: Int
}
