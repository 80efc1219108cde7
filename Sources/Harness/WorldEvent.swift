import CloudSim
import Kernel
import SyncContract

/// Everything the world schedules on the kernel. Events addressed to a device carry the
/// incarnation they were meant for: a kill makes the older ones vanish when they come due.
///
/// The cases with large payloads are `indirect` (heap sifts move a pointer, not a request);
/// a resume and a push are not: they are most of the events, and boxing them took an
/// allocation and a release each.
enum WorldEvent {
    /// A request reaches the cloud (it left the device when sent; a kill does not stop it).
    /// `sent` is the engine's `.send` effect itself: its request stays in the effect's box and
    /// is read there when it arrives (taken out, it was copied, every reference retained).
    indirect case requestArrives(device: Int, incarnation: Int, sent: EngineEffect, CloudClient)
    /// The cloud's answer reaches the device.
    indirect case responseArrives(device: Int, incarnation: Int, RequestID, CloudResponse)
    /// A silent push reaches the device.
    case pushArrives(device: Int)
    /// An engine timer fires.
    indirect case timer(device: Int, incarnation: Int, EngineTimer)
    /// The engine resumes after the probe point that handed out the ticket.
    case resume(device: Int, incarnation: Int, ticket: ProbeTicket)
}

/// A timer an engine set: the kernel event that fires it, and when (`World.timers`).
struct ArmedTimer {
    var event: EventID
    var due: SimTime
    /// Armed for the wait bound or longer (a record set aside for an hour, SCHEMA-4): no wait
    /// waits for it, however close it has come since.
    var isLong = false
}
