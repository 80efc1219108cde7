import Kernel
import Testing

@Suite("EventQueue")
struct EventQueueTests {
    @Test("events come out by time, then by order of scheduling")
    func ordering() {
        var queue = EventQueue<String>()
        queue.schedule(at: .microseconds(30), "c")
        queue.schedule(at: .microseconds(10), "a1")
        queue.schedule(at: .microseconds(20), "b")
        queue.schedule(at: .microseconds(10), "a2")
        queue.schedule(at: .microseconds(10), "a3")
        #expect(queue.count == 5)
        #expect(queue.nextTime == .microseconds(10))
        var order: [String] = []
        while let event = queue.popNext() {
            order.append(event.payload)
        }
        #expect(order == ["a1", "a2", "a3", "b", "c"])
        #expect(queue.isEmpty && queue.nextTime == nil && queue.popNext() == nil)
    }

    @Test("extreme and negative times order correctly")
    func extremeTimes() {
        var queue = EventQueue<Int64>()
        let times: [Int64] = [.max, 0, -1, .min, 1, .min + 1, .max - 1, -1]
        for time in times {
            queue.schedule(at: .microseconds(time), time)
        }
        var order: [Int64] = []
        while let event = queue.popNext() {
            #expect(event.time.microseconds == event.payload)
            order.append(event.payload)
        }
        #expect(order == times.sorted())
    }

    @Test("ids are increasing sequence numbers from zero")
    func identifiers() {
        var queue = EventQueue<Int>()
        let first = queue.schedule(at: .seconds(5), 1)
        let second = queue.schedule(at: .seconds(1), 2)
        #expect(first == EventID(sequence: 0) && second == EventID(sequence: 1))
        #expect(first < second)
        let popped = queue.popNext()
        #expect(popped == ScheduledEvent(time: .seconds(1), id: second, payload: 2))
    }

    @Test("cancel removes a waiting event and ignores one that is gone")
    func cancellation() {
        var queue = EventQueue<Int>()
        let ids = (0..<10).map { queue.schedule(at: .microseconds(Int64(10 - $0)), $0) }
        let results = [
            queue.cancel(ids[9]), queue.cancel(ids[4]), queue.cancel(ids[4]),
            queue.cancel(EventID(sequence: 99)),
        ]
        #expect(results == [true, true, false, false])
        #expect(queue.count == 8)
        #expect(queue.nextTime == .microseconds(2))
        let popped = queue.popNext()
        #expect(popped?.payload == 8)
        let cancelledPopped = queue.cancel(ids[8])
        #expect(!cancelledPopped)
        #expect(queue.pending().map(\.payload) == [7, 6, 5, 3, 2, 1, 0])
    }

    @Test("pending() lists waiting events by (time, sequence) and leaves the queue alone")
    func pendingOrder() {
        var queue = EventQueue<String>()
        queue.schedule(at: .seconds(2), "late")
        queue.schedule(at: .seconds(1), "early-1")
        queue.schedule(at: .seconds(1), "early-2")
        let pending = queue.pending()
        #expect(pending.map(\.payload) == ["early-1", "early-2", "late"])
        #expect(pending.map(\.id.sequence) == [1, 2, 0])
        #expect(queue.count == 3)
    }

    @Test("events for the current instant wait beside the heap and keep the order")
    func eventsForNow() {
        var queue = EventQueue<String>()
        queue.schedule(at: .microseconds(10), "heap-10")
        queue.schedule(at: .microseconds(5), "front-5a")    // earlier than the root: front
        queue.schedule(at: .microseconds(5), "front-5b")
        queue.schedule(at: .microseconds(7), "heap-7")      // another time: the heap
        queue.schedule(at: .microseconds(3), "heap-3")      // earlier than the front: heap
        #expect(queue.count == 5 && queue.nextTime == .microseconds(3))
        #expect(queue.peek?.payload == "heap-3")
        let first = queue.popNext()
        #expect(first?.payload == "heap-3")
        #expect(queue.peek?.payload == "front-5a")
        // Cancelled from the front; then the front's order, then the heap's.
        let cancelled = queue.cancel(EventID(sequence: 1))
        #expect(cancelled)
        var order: [String] = []
        while let event = queue.popNext() { order.append(event.payload) }
        #expect(order == ["front-5b", "heap-7", "heap-10"])
        // More than the front holds for one instant spill into the heap, in order.
        for number in 0..<40 { queue.schedule(at: .microseconds(20), "n\(number)") }
        #expect(queue.pending().map(\.payload) == (0..<40).map { "n\($0)" })
        order = []
        while let event = queue.popNext() { order.append(event.payload) }
        #expect(order == (0..<40).map { "n\($0)" })
    }

    @Test("random schedules, cancels and pops agree with a sorted list", arguments: [1, 2, 3])
    func agreesWithModel(seed: UInt64) {
        var random = Xoshiro256StarStar(seed: seed)
        var queue = EventQueue<Int>()
        var model: [ScheduledEvent<Int>] = []
        var now: Int64 = 0
        // Seed 3 schedules mostly for the current instant (the queue's front run).
        let span: Int64 = seed == 3 ? 1 : 50
        for step in 0..<20_000 {
            let roll = random.uniform(below: 10)
            if roll < 5 {
                let time = SimTime(microseconds: now + random.int(in: 0...span))
                let id = queue.schedule(at: time, step)
                model.append(ScheduledEvent(time: time, id: id, payload: step))
            } else if roll < 6, !model.isEmpty {
                let victim = model[Int(random.uniform(below: UInt64(model.count)))]
                let cancelled = queue.cancel(victim.id)
                #expect(cancelled)
                model.removeAll { $0.id == victim.id }
            } else {
                model.sort { ($0.time, $0.id) < ($1.time, $1.id) }
                let expected = model.isEmpty ? nil : model.removeFirst()
                let popped = queue.popNext()
                #expect(popped == expected)
                if let popped { now = popped.time.microseconds }
            }
            #expect(queue.count == model.count)
        }
        model.sort { ($0.time, $0.id) < ($1.time, $1.id) }
        #expect(queue.pending() == model)
    }
}
