import Kernel
import Testing

@Suite("Kernel scheduler")
struct KernelTests {
    typealias Event = ScheduledEvent<String>

    func delivered(_ step: Step<String>) -> (payload: String, actor: String, time: SimTime)? {
        guard case .event(let event, let actor) = step else { return nil }
        return (event.payload, actor, event.time)
    }

    @Test("next() hands out events in (time, sequence) order and moves the clock")
    func ordering() {
        var kernel = Kernel<String>(budget: .unlimited)
        kernel.schedule(after: .milliseconds(2), actor: "phone", "b")
        kernel.schedule(at: .milliseconds(1), actor: "laptop", "a")
        kernel.schedule(after: .milliseconds(2), actor: "cloud", "c")
        #expect(kernel.pendingCount == 3 && kernel.nextTime == .milliseconds(1))
        var seen: [String] = []
        while let step = delivered(kernel.next()) {
            seen.append("\(step.payload)@\(step.actor)@\(step.time)")
            #expect(kernel.now == step.time)
        }
        #expect(seen == ["a@laptop@0.001s", "b@phone@0.002s", "c@cloud@0.002s"])
        #expect(kernel.eventsProcessed == 3)
        #expect(kernel.next() == .empty)
        #expect(kernel.now == .milliseconds(2))
    }

    @Test("delays count from the current time")
    func relativeDelay() {
        var kernel = Kernel<String>(budget: .unlimited)
        kernel.schedule(at: .seconds(1), actor: "a", "first")
        _ = kernel.next()
        kernel.schedule(after: .milliseconds(500), actor: "a", "second")
        #expect(kernel.nextTime == .microseconds(1_500_000))
    }

    @Test("events due exactly at the limit come before reachedLimit")
    func limitIsInclusive() {
        var kernel = Kernel<String>(budget: .unlimited)
        kernel.schedule(at: .seconds(1), actor: "a", "at-limit")
        kernel.schedule(at: .seconds(2), actor: "a", "after")
        #expect(delivered(kernel.next(until: .seconds(1)))?.payload == "at-limit")
        #expect(kernel.next(until: .seconds(1)) == .reachedLimit)
        #expect(kernel.now == .seconds(1))
        #expect(kernel.next(until: .microseconds(1_999_999)) == .reachedLimit)
        #expect(kernel.now == .microseconds(1_999_999))
        #expect(delivered(kernel.next(until: .seconds(3)))?.payload == "after")
        #expect(kernel.next(until: .seconds(3)) == .empty)
        #expect(kernel.now == .seconds(3))
    }

    @Test("cancel removes a waiting event; pending() lists the rest with actors")
    func cancelAndPending() {
        var kernel = Kernel<String>(budget: .unlimited)
        let timer = kernel.schedule(at: .seconds(1), actor: "phone", "debounce")
        kernel.schedule(at: .seconds(2), actor: "cloud", "push")
        kernel.schedule(at: .seconds(2), actor: "laptop", "poll")
        let cancelled = (kernel.cancel(timer), kernel.cancel(timer))
        #expect(cancelled == (true, false))
        let pending = kernel.pending()
        #expect(pending.map(\.actor) == ["cloud", "laptop"])
        #expect(pending.map(\.payload) == ["push", "poll"])
        #expect(pending.map(\.id.sequence) == [1, 2])
        #expect(delivered(kernel.next())?.payload == "push")
    }

    @Test("the event budget stops the run and names the busiest actor")
    func eventBudget() {
        var kernel = Kernel<String>(budget: Budget(maxTime: .hours(1), maxEvents: 5))
        for index in 0..<3 {
            kernel.schedule(at: .seconds(Int64(index)), actor: "phone", "p")
            kernel.schedule(at: .seconds(Int64(index)), actor: "zed", "z")
        }
        for _ in 0..<5 {
            #expect(delivered(kernel.next()) != nil)
        }
        guard case .budgetExceeded(let failure) = kernel.next() else {
            Issue.record("expected a budget failure")
            return
        }
        #expect(failure.reason == .events && failure.limit == 5)
        #expect(failure.busiestActor == "phone" && failure.busiestActorEvents == 3)
        #expect(failure.eventsProcessed == 5 && failure.time == .seconds(2))
        #expect(failure.description
            == "budget exceeded: the run's event budget of 5 events was used up (busiest actor "
                + "'phone', 3 events); raise it with 'budget events N' in the scenario or "
                + "'--max-events N'")
        #expect(kernel.next() == .budgetExceeded(failure))
        #expect(kernel.pendingCount == 1)
    }

    @Test("busiest-actor ties go to the name first in UTF-8 byte order")
    func tieBreak() {
        var kernel = Kernel<String>(budget: Budget(maxTime: .hours(1), maxEvents: 4))
        for name in ["phone", "Phone", "laptop", "cloud"] {
            kernel.schedule(at: .zero, actor: name, name)
        }
        kernel.schedule(at: .zero, actor: "cloud", "again")
        for _ in 0..<4 { _ = kernel.next() }
        #expect(kernel.busiestActor() == ActorEventCount(actor: "Phone", events: 1))
        #expect(kernel.eventCounts().map(\.actor) == ["Phone", "cloud", "laptop", "phone"])
        guard case .budgetExceeded(let failure) = kernel.next() else {
            Issue.record("expected a budget failure")
            return
        }
        #expect(failure.busiestActor == "Phone")
    }

    @Test("the time budget stops events and limits beyond it")
    func timeBudget() {
        var kernel = Kernel<String>(budget: Budget(maxTime: .seconds(10), maxEvents: 100))
        kernel.schedule(at: .seconds(10), actor: "a", "last-allowed")
        kernel.schedule(at: .seconds(11), actor: "b", "too-late")
        #expect(delivered(kernel.next())?.payload == "last-allowed")
        guard case .budgetExceeded(let failure) = kernel.next() else {
            Issue.record("expected a budget failure")
            return
        }
        #expect(failure.reason == .time && failure.limit == 10_000_000)
        #expect(failure.description
            == "budget exceeded: the run would pass its time budget of 10s of simulated time "
                + "(busiest actor 'a', 1 events); raise it with 'budget time D' in the "
                + "scenario or '--max-time D'")
        #expect(kernel.now == .seconds(10))

        var idle = Kernel<String>(budget: Budget(maxTime: .seconds(10), maxEvents: 100))
        #expect(idle.next(until: .seconds(10)) == .empty)
        guard case .budgetExceeded(let idleFailure) = idle.next(until: .seconds(11)) else {
            Issue.record("expected a budget failure")
            return
        }
        #expect(idleFailure.description
            == "budget exceeded: the run would pass its time budget of 10s of simulated time "
                + "(no event ran); raise it with 'budget time D' in the scenario or "
                + "'--max-time D'")
        #expect(idle.now == .seconds(10))
    }

    @Test("actor handles are stable and schedule like names")
    func actorHandles() {
        var kernel = Kernel<Int>(budget: .unlimited)
        let phone = kernel.actor(named: "phone")
        #expect(kernel.actor(named: "phone") == phone)
        #expect(kernel.name(of: phone) == "phone")
        kernel.schedule(after: .microseconds(3), actor: phone, 1)
        guard case .event(let event, let actor) = kernel.next() else {
            Issue.record("expected an event")
            return
        }
        #expect(actor == "phone" && event.payload == 1 && event.time == .microseconds(3))
    }

    @Test("nextPayload takes the steps next(until:) takes, payload alone")
    func payloadOnly() {
        var kernel = Kernel<String>(budget: Budget(maxTime: .seconds(10), maxEvents: 3))
        kernel.schedule(at: .seconds(2), actor: "a", "later")
        kernel.schedule(at: .seconds(1), actor: "b", "first")
        kernel.schedule(at: .seconds(2), actor: "a", "same time")
        var failure: BudgetFailure?
        #expect(kernel.nextPayload(until: .seconds(1), failure: &failure) == "first")
        #expect(kernel.nextPayload(until: .seconds(1), failure: &failure) == nil)
        #expect(failure == nil && kernel.now == .seconds(1))
        #expect(kernel.nextPayload(until: nil, failure: &failure) == "later")
        #expect(kernel.nextPayload(until: nil, failure: &failure) == "same time")
        #expect(kernel.eventsProcessed == 3 && kernel.now == .seconds(2))
        kernel.schedule(after: .seconds(1), actor: "a", "past the budget")
        #expect(kernel.nextPayload(until: nil, failure: &failure) == nil)
        #expect(failure?.reason == .events)
        #expect(kernel.pendingCount == 1)
    }
}
