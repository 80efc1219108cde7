/// The single-threaded scheduler of a simulation: the virtual clock, the events, the budget.
///
/// Components never call each other; they schedule events for an actor (a device, the cloud)
/// and the driver loop takes them out one at a time with `next(until:)`. Time only moves
/// here, to the time of the event taken or to the limit asked for, and never past the budget.
public struct Kernel<Payload> {
    @usableFromInline
    struct Routed {
        @usableFromInline let actor: UInt32
        @usableFromInline let payload: Payload

        @inlinable
        init(actor: UInt32, payload: Payload) {
            self.actor = actor
            self.payload = payload
        }
    }

    @usableFromInline var queue = EventQueue<Routed>()
    @usableFromInline var currentMicroseconds: Int64 = 0
    @usableFromInline var processedCount = 0
    @usableFromInline var actorNames: [String] = []
    @usableFromInline var actorIndexByName: [String: UInt32] = [:]
    @usableFromInline var eventCountByActor = ActorEventCounts()
    /// The bounds this run must stay within.
    public let budget: Budget

    public init(budget: Budget) {
        self.budget = budget
    }

    /// The current simulated time.
    @inlinable
    public var now: SimTime { SimTime(microseconds: currentMicroseconds) }

    /// The number of events handed out by `next(until:)` so far.
    @inlinable
    public var eventsProcessed: Int { processedCount }

    /// The number of events waiting.
    @inlinable
    public var pendingCount: Int { queue.count }

    /// The time of the next waiting event, or nil when none is waiting.
    @inlinable
    public var nextTime: SimTime? { queue.nextTime }

    /// Returns the handle of actor `name`, registering the name on first use.
    ///
    /// Scheduling by handle skips hashing the name on every event: in the pingpong workload
    /// that is the difference between about 2 and about 9 million events per second.
    public mutating func actor(named name: String) -> ActorID {
        if let index = actorIndexByName[name] {
            return ActorID(index: index)
        }
        precondition(actorNames.count < Int(UInt32.max), "too many actors")
        let index = UInt32(actorNames.count)
        actorNames.append(name)
        actorIndexByName[name] = index
        eventCountByActor.addActor()
        return ActorID(index: index)
    }

    /// The name an actor handle stands for.
    public func name(of actor: ActorID) -> String {
        actorNames[Int(actor.index)]
    }

    /// Schedules `payload` for `actor` after `delay` (not negative) from now.
    @inlinable
    @discardableResult
    public mutating func schedule(
        after delay: SimTime, actor: String, _ payload: consuming Payload
    ) -> EventID
    {
        precondition(delay >= .zero, "cannot schedule with a negative delay (\(delay))")
        return schedule(at: now.adding(delay), actor: self.actor(named: actor), consume payload)
    }

    /// Schedules `payload` for `actor` at `time`, which must not be in the past.
    @inlinable
    @discardableResult
    public mutating func schedule(
        at time: SimTime, actor: String, _ payload: consuming Payload
    ) -> EventID
    {
        schedule(at: time, actor: self.actor(named: actor), consume payload)
    }

    /// Schedules `payload` for a registered actor after `delay` (not negative) from now.
    @inlinable
    @discardableResult
    public mutating func schedule(
        after delay: SimTime, actor: ActorID, _ payload: consuming Payload
    ) -> EventID
    {
        precondition(delay.microseconds >= 0, "cannot schedule with a negative delay")
        // A delay too large to add saturates: the event is due past any budget (a `.time`
        // failure when it comes next), never an overflow trap.
        return schedule(at: now.adding(delay), actor: actor, consume payload)
    }

    /// Schedules `payload` for a registered actor at `time`, which must not be in the past.
    @inlinable
    @discardableResult
    public mutating func schedule(
        at time: SimTime, actor: ActorID, _ payload: consuming Payload
    ) -> EventID
    {
        precondition(time.microseconds >= currentMicroseconds, "cannot schedule in the past")
        precondition(Int(actor.index) < eventCountByActor.count, "unknown actor handle")
        return queue.schedule(at: time, Routed(actor: actor.index, payload: consume payload))
    }

    /// Whether `count` events could be taken now, one after another, each scheduled now and
    /// taken at once (`takeInLine(actor:)`): nothing else is due at this time (`now` never
    /// runs ahead of a waiting event, so nothing earlier is), and the event budget has room
    /// for all of them.
    @inlinable @inline(__always)
    public func canTakeInLine(_ count: Int) -> Bool {
        if let due = queue.nextTime, due.microseconds <= currentMicroseconds { return false }
        return budget.maxEvents - processedCount > count
    }

    /// Counts an event for `actor` that was scheduled now and taken at once, without going
    /// through the queue: it takes a sequence number and counts against the budget as the
    /// event would have (allowed only after `canTakeInLine`, which saw room for it).
    @inlinable @inline(__always)
    public mutating func takeInLine(actor: ActorID) {
        precondition(processedCount < budget.maxEvents, "an event taken in line broke the budget")
        queue.skipSequence()
        processedCount += 1
        eventCountByActor.increment(Int(actor.index))
    }

    /// Removes a waiting event; returns whether it was still waiting.
    @discardableResult
    public mutating func cancel(_ id: EventID) -> Bool {
        queue.cancel(id)
    }

    /// Takes the next step: the next event due at or before `limit` (any, if nil), or else
    /// moves `now` to `limit`; a step that would break the budget changes nothing.
    ///
    /// Events due exactly at `limit` come out before `.reachedLimit`. `now` never passes
    /// `budget.maxTime`: an event due later, or a limit later with nothing due before it,
    /// is a `.time` failure.
    @inlinable
    public mutating func next(until limit: SimTime? = nil) -> Step<Payload> {
        take(until: limit, naming: true)
    }

    /// `next(until:)` for a driver that does not read the actor's name: an event's `actor`
    /// is empty. (Naming it retained and released the name on every event.)
    @inlinable
    public mutating func nextUnnamed(until limit: SimTime? = nil) -> Step<Payload> {
        take(until: limit, naming: false)
    }

    /// `nextUnnamed(until:)` for a driver that reads only an event's payload: nil for a step
    /// without an event, with `failure` set when the step broke the budget. (A step wrapping
    /// the event moved the payload several times on its way out.)
    @inlinable @inline(__always)
    public mutating func nextPayload(until limit: SimTime?, failure: inout BudgetFailure?)
        -> Payload?
    {
        let limitMicroseconds = limit?.microseconds ?? .max
        precondition(limitMicroseconds >= currentMicroseconds, "limit is in the past")
        guard let due = queue.nextTime?.microseconds, due <= limitMicroseconds else {
            if case .budgetExceeded(let budgetFailure) = advance(to: limit) {
                failure = budgetFailure
            }
            return nil
        }
        if due > budget.maxTime.microseconds {
            failure = self.failure(.time)
            return nil
        }
        if processedCount >= budget.maxEvents {
            failure = self.failure(.events)
            return nil
        }
        guard let taken = queue.popNextPayload() else {
            preconditionFailure("queue lost an event")
        }
        currentMicroseconds = due
        processedCount += 1
        eventCountByActor.increment(Int(taken.actor))
        return taken.payload
    }

    /// The step of `next(until:)`; `naming`: whether an event carries its actor's name.
    @inlinable @inline(__always)
    mutating func take(until limit: SimTime?, naming: Bool) -> Step<Payload> {
        let limitMicroseconds = limit?.microseconds ?? .max
        precondition(limitMicroseconds >= currentMicroseconds, "limit is in the past")
        guard let due = queue.nextTime?.microseconds, due <= limitMicroseconds else {
            return advance(to: limit)
        }
        if due > budget.maxTime.microseconds {
            return .budgetExceeded(failure(.time))
        }
        if processedCount >= budget.maxEvents {
            return .budgetExceeded(failure(.events))
        }
        guard let taken = queue.popNext() else { preconditionFailure("queue lost an event") }
        currentMicroseconds = due
        processedCount += 1
        let actor = Int(taken.payload.actor)
        eventCountByActor.increment(actor)
        let event = ScheduledEvent(time: taken.time, id: taken.id, payload: taken.payload.payload)
        return .event(event, actor: naming ? actorNames[actor] : "")
    }

    /// Inlinable, so it is specialized for the caller's payload: called from another module
    /// unspecialized, it would look up the generic metadata of `Step`, `Routed` and the
    /// queue's entries on every call.
    @inlinable
    mutating func advance(to limit: SimTime?) -> Step<Payload> {
        guard let limit else { return .empty }
        if limit > budget.maxTime {
            return .budgetExceeded(failure(.time))
        }
        currentMicroseconds = limit.microseconds
        return queue.isEmpty ? .empty : .reachedLimit
    }

    @usableFromInline
    func failure(_ reason: BudgetFailure.Reason) -> BudgetFailure {
        let busiest = busiestActor()
        let limit = reason == .time ? budget.maxTime.microseconds : Int64(budget.maxEvents)
        return BudgetFailure(
            reason: reason, limit: limit,
            busiestActor: busiest?.actor ?? "", busiestActorEvents: busiest?.events ?? 0,
            time: now, eventsProcessed: processedCount
        )
    }

    /// The actor that handled the most events, ties going to the name first in UTF-8 byte
    /// order; nil when no event ran.
    public func busiestActor() -> ActorEventCount? {
        var best: Int?
        for index in 0..<eventCountByActor.count where eventCountByActor[index] > 0 {
            guard let current = best else {
                best = index
                continue
            }
            let count = eventCountByActor[index]
            let bestCount = eventCountByActor[current]
            if count > bestCount
                || (count == bestCount && Self.precedes(actorNames[index], actorNames[current]))
            {
                best = index
            }
        }
        return best.map { ActorEventCount(actor: actorNames[$0], events: eventCountByActor[$0]) }
    }

    /// Every actor that was scheduled for, with the events it handled, sorted by name.
    public func eventCounts() -> [ActorEventCount] {
        actorNames.indices
            .sorted { Self.precedes(actorNames[$0], actorNames[$1]) }
            .map { ActorEventCount(actor: actorNames[$0], events: eventCountByActor[$0]) }
    }

    /// Every waiting event with its actor, in (time, sequence) order, for leftover accounts.
    public func pending() -> [PendingEvent<Payload>] {
        queue.pending().map {
            PendingEvent(
                time: $0.time, id: $0.id, actor: actorNames[Int($0.payload.actor)],
                payload: $0.payload.payload
            )
        }
    }

    /// Orders names by their UTF-8 bytes, the same in every tool and locale.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}

extension Kernel: Sendable where Payload: Sendable {}
extension Kernel.Routed: Sendable where Payload: Sendable {}
