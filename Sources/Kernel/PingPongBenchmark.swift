/// The "pingpong" workload of BENCH.md: the kernel alone, passing messages between actors.
///
/// It runs the real `Kernel`, `EventQueue`, `RandomStreams` and a counting `Trace`, so its
/// figure is what a simulation pays per event before any component does work. Exactly, so
/// another tool can reproduce it and compare `checksum`:
///
/// 1. `streams = RandomStreams(seed: seed)`; `delays = streams.stream("pingpong/delay")`,
///    `targets = streams.stream("pingpong/target")`.
/// 2. Actors are named `actor0` ... `actor<A-1>`, numbered 0 ..< A.
/// 3. Setup, for i = 0 ..< A in order: `d = delays.int(in: 1...1000)`; schedule a message to
///    actor i at time d (microseconds). These get sequence numbers 0 ..< A.
/// 4. Repeat: take the event first by (time, sequence); it is a delivery at time t to actor r.
///    Count it. Stop after the E-th delivery. Otherwise draw `s = targets.uniform(below: A)`,
///    then `d = delays.int(in: 1...1000)`, and schedule a message to actor s at time t + d
///    (the next sequence number).
/// 5. `checksum` starts at `0xcbf29ce484222325`; for each delivery, in order,
///    `c = (c ^ t) * 0x100000001b3`, then `c = (c ^ r) * 0x100000001b3`, modulo 2^64
///    (t as a 64-bit two's complement word, r as an unsigned number).
public enum PingPongBenchmark {
    public static let defaultActors = 1_000
    public static let defaultDeliveries = 10_000_000
    public static let defaultSeed: UInt64 = 1

    public static func run(
        actors: Int = defaultActors, deliveries: Int = defaultDeliveries,
        seed: UInt64 = defaultSeed
    ) -> PingPongResult {
        precondition(actors >= 1 && actors <= Int(UInt32.max), "pingpong needs actors")
        precondition(deliveries >= 0, "pingpong needs a count of deliveries")
        let streams = RandomStreams(seed: seed)
        var delays = streams.stream("pingpong/delay")
        var targets = streams.stream("pingpong/target")
        var kernel = Kernel<UInt32>(budget: Budget(maxTime: .max, maxEvents: deliveries))
        var trace = Trace(recording: false)
        for index in 0..<actors {
            let actor = kernel.actor(named: "actor\(index)")
            let delay = delays.int(in: 1...1_000)
            kernel.schedule(at: SimTime(microseconds: delay), actor: actor, UInt32(index))
        }
        var checksum: UInt64 = 0xCBF2_9CE4_8422_2325
        var delivered = 0
        while delivered < deliveries {
            guard case .event(let event, let name) = kernel.next(until: nil) else {
                preconditionFailure("pingpong ran out of messages")
            }
            delivered += 1
            trace.append(TraceEvent(time: event.time, actor: name, kind: "deliver"))
            let time = event.time.microseconds
            checksum = (checksum ^ UInt64(bitPattern: time)) &* 0x0000_0100_0000_01B3
            checksum = (checksum ^ UInt64(event.payload)) &* 0x0000_0100_0000_01B3
            if delivered == deliveries { break }
            let target = UInt32(targets.uniform(below: UInt64(actors)))
            let delay = delays.int(in: 1...1_000)
            kernel.schedule(
                at: SimTime(microseconds: time + delay), actor: ActorID(index: target), target
            )
        }
        precondition(trace.count == delivered, "every delivery is counted in the trace")
        return PingPongResult(
            actors: actors, deliveries: delivered, seed: seed, finalTime: kernel.now,
            checksum: checksum
        )
    }
}

/// What a pingpong run did, enough to compare two implementations of the same workload.
public struct PingPongResult: Sendable, Hashable, CustomStringConvertible {
    public let actors: Int
    public let deliveries: Int
    public let seed: UInt64
    /// Simulated time of the last delivery.
    public let finalTime: SimTime
    /// The running hash of (time, actor) of every delivery, as documented on the workload.
    public let checksum: UInt64

    public init(actors: Int, deliveries: Int, seed: UInt64, finalTime: SimTime, checksum: UInt64) {
        self.actors = actors
        self.deliveries = deliveries
        self.seed = seed
        self.finalTime = finalTime
        self.checksum = checksum
    }

    public var description: String {
        "pingpong actors=\(actors) deliveries=\(deliveries) seed=\(seed) "
            + "final-time-us=\(finalTime.microseconds) checksum=\(checksum)"
    }
}
