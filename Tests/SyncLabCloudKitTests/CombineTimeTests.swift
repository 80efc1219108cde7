import CloudKit
import Combine
import Foundation
import SyncLabTesting
import Testing

/// Combine's time operators, `Timer.publish` and `Future` in a device's code: they wait in the
/// device's simulated time and run on its executor, so a seed orders them.
@Suite struct CombineTimeTests {
    final class Log: @unchecked Sendable {
        var lines: [String] = []
        var cancellables: [AnyCancellable] = []
        let subject = PassthroughSubject<Int, Never>()
    }

    static var here: String {
        guard let runtime = DeviceRuntime.current else { return "off device" }
        return "\(runtime.now.microseconds / 1000) ms"
    }

    /// Sends each value at its millisecond (from the test, between device runs).
    static func send(_ values: [(Int, Int)], to log: Log, on phone: SimulatedDevice,
                     world: SimulatedWorld) throws {
        for (value, at) in values {
            try world.advance(by: .milliseconds(at) - world.now)
            try phone.run { log.subject.send(value) }
        }
    }

    @Test func receiveOnDeliversAfterTheSendingCodeAtTheSameInstant() throws {
        let world = try SimulatedWorld(seed: 3, devices: [("phone", "alice")])
        let phone = world.device("phone")
        let log = Log()
        try phone.run {
            log.subject.receive(on: DispatchQueue.main)
                .sink(receiveCompletion: { log.lines.append("\($0) at \(Self.here)") },
                      receiveValue: { log.lines.append("\($0) at \(Self.here)") })
                .store(in: &log.cancellables)
        }
        try world.advance(by: .milliseconds(40))
        try phone.run {
            log.subject.send(1)
            log.subject.send(2)
            log.subject.send(completion: .finished)
            log.lines.append("sent")
        }
        #expect(log.lines == ["sent", "1 at 40 ms", "2 at 40 ms", "finished at 40 ms"])
    }

    @Test func debounceDeliversAfterAQuietSpanAndDropsTheWaitingValueAtTheEnd() throws {
        let world = try SimulatedWorld(seed: 3, devices: [("phone", "alice")])
        let phone = world.device("phone")
        let log = Log()
        try phone.run {
            log.subject.debounce(for: .milliseconds(500), scheduler: DispatchQueue.main)
                .sink(receiveCompletion: { log.lines.append("\($0) at \(Self.here)") },
                      receiveValue: { log.lines.append("\($0) at \(Self.here)") })
                .store(in: &log.cancellables)
        }
        try Self.send([(1, 0), (2, 300), (3, 1000), (4, 1600)], to: log, on: phone,
                      world: world)
        try phone.run { log.subject.send(completion: .finished) }
        try world.advance(by: .seconds(2))
        #expect(log.lines == ["2 at 800 ms", "3 at 1500 ms", "finished at 1600 ms"])
    }

    @Test func throttleSendsTheFirstAtOnceThenOnePerInterval() throws {
        for latest in [true, false] {
            let world = try SimulatedWorld(seed: 3, devices: [("phone", "alice")])
            let phone = world.device("phone")
            let log = Log()
            try phone.run {
                log.subject.throttle(for: .seconds(1), scheduler: RunLoop.main, latest: latest)
                    .sink { log.lines.append("\($0) at \(Self.here)") }
                    .store(in: &log.cancellables)
            }
            try Self.send([(1, 0), (2, 200), (3, 400), (4, 2500)], to: log, on: phone,
                          world: world)
            try world.advance(by: .seconds(2))
            let second = latest ? "3" : "2"
            #expect(log.lines == ["1 at 0 ms", "\(second) at 1000 ms", "4 at 2500 ms"],
                    "latest: \(latest)")
        }
    }

    @Test func throttleSendsAWaitingValueWithTheCompletionThatFollowsIt() throws {
        let world = try SimulatedWorld(seed: 3, devices: [("phone", "alice")])
        let phone = world.device("phone")
        let log = Log()
        try phone.run {
            log.subject.throttle(for: .seconds(1), scheduler: DispatchQueue.main, latest: true)
                .sink(receiveCompletion: { log.lines.append("\($0) at \(Self.here)") },
                      receiveValue: { log.lines.append("\($0) at \(Self.here)") })
                .store(in: &log.cancellables)
        }
        try Self.send([(1, 0), (2, 300)], to: log, on: phone, world: world)
        try phone.run { log.subject.send(completion: .finished) }
        try world.advance(by: .seconds(2))
        #expect(log.lines == ["1 at 0 ms", "2 at 1000 ms", "finished at 1000 ms"])
    }

    @Test func delayMovesEveryValueAndTheEndLater() throws {
        let world = try SimulatedWorld(seed: 3, devices: [("phone", "alice")])
        let phone = world.device("phone")
        let log = Log()
        try phone.run {
            log.subject.delay(for: .seconds(1.5), scheduler: DispatchQueue.main)
                .sink(receiveCompletion: { log.lines.append("\($0) at \(Self.here)") },
                      receiveValue: { log.lines.append("\($0) at \(Self.here)") })
                .store(in: &log.cancellables)
        }
        try Self.send([(1, 0), (2, 100)], to: log, on: phone, world: world)
        try phone.run { log.subject.send(completion: .finished) }
        try world.advance(by: .seconds(3))
        #expect(log.lines == ["1 at 1500 ms", "2 at 1600 ms", "finished at 1600 ms"])
    }

    @Test func timeoutEndsAQuietStreamFinishedOrWithTheCustomError() throws {
        struct Late: Error {}
        let world = try SimulatedWorld(seed: 3, devices: [("phone", "alice")])
        let phone = world.device("phone")
        let log = Log()
        try phone.run {
            let failing = PassthroughSubject<Int, Late>()
            log.subject.timeout(.seconds(1), scheduler: DispatchQueue.main)
                .sink(receiveCompletion: { log.lines.append("\($0) at \(Self.here)") },
                      receiveValue: { log.lines.append("\($0) at \(Self.here)") })
                .store(in: &log.cancellables)
            failing.timeout(.milliseconds(300), scheduler: RunLoop.main) { Late() }
                .sink(receiveCompletion: { _ in log.lines.append("late at \(Self.here)") },
                      receiveValue: { _ in })
                .store(in: &log.cancellables)
        }
        try Self.send([(1, 600), (2, 1200)], to: log, on: phone, world: world)
        try world.advance(by: .seconds(3))
        #expect(log.lines == ["late at 300 ms", "1 at 600 ms", "2 at 1200 ms",
                              "finished at 2200 ms"])
    }

    @Test func aTimerTicksInSimulatedTimeUntilCancelled() throws {
        let world = try SimulatedWorld(seed: 3, devices: [("phone", "alice")])
        let phone = world.device("phone")
        let log = Log()
        let start = try phone.run { DeviceRuntime.current!.date }
        try phone.run {
            Timer.publish(every: 2, on: .main, in: .common).autoconnect()
                .sink { date in
                    let seconds = date.timeIntervalSince(start)
                    log.lines.append("tick \(seconds) s at \(Self.here)")
                }
                .store(in: &log.cancellables)
        }
        try world.advance(by: .seconds(5))
        log.cancellables = []
        try world.advance(by: .seconds(5))
        #expect(log.lines == ["tick 2.0 s at 2000 ms", "tick 4.0 s at 4000 ms"])
        try world.settle()
    }

    @Test func aFutureRunsOnceAndEverySubscriberGetsItsResult() throws {
        let world = try SimulatedWorld(seed: 3, devices: [("phone", "alice")])
        let phone = world.device("phone")
        let log = Log()
        try phone.run {
            var runs = 0
            let future = Future<Int, Never> { promise in
                runs += 1
                nonisolated(unsafe) let promise = promise
                DispatchQueue.main.asyncAfter(deadline: .now() + 1) {
                    promise(.success(7))
                    promise(.success(8))
                }
            }
            future.sink { log.lines.append("early \($0) at \(Self.here)") }
                .store(in: &log.cancellables)
            let deferred = Deferred { Future<Int, Never> { promise in
                log.lines.append("deferred made at \(Self.here)")
                promise(.success(1))
            } }
            log.lines.append("built, runs \(runs)")
            deferred.sink { log.lines.append("deferred \($0)") }.store(in: &log.cancellables)
            log.cancellables.append(future.sink { _ in })
            log.subject.map { $0 }.sink { _ in
                future.sink { log.lines.append("late \($0) at \(Self.here)") }
                    .store(in: &log.cancellables)
            }.store(in: &log.cancellables)
        }
        try world.advance(by: .seconds(2))
        try phone.run { log.subject.send(0) }
        #expect(log.lines == ["built, runs 1", "deferred made at 0 ms", "deferred 1",
                              "early 7 at 1000 ms", "late 7 at 2000 ms"])
    }

    @Test func emptyAndFailEndAtOnce() {
        struct Boom: Error, Equatable {}
        var lines: [String] = []
        _ = Empty<Int, Never>().sink(receiveCompletion: { lines.append("empty \($0)") },
                                     receiveValue: { lines.append("value \($0)") })
        _ = Fail<Int, Boom>(error: Boom()).sink(
            receiveCompletion: { lines.append("fail \($0 == .failure(Boom()))") },
            receiveValue: { lines.append("value \($0)") })
        #expect(lines == ["empty finished", "fail true"])
    }

    @Test func offADeviceTheImmediateSchedulerRunsAtOnce() {
        var lines: [Int] = []
        let subject = PassthroughSubject<Int, Never>()
        let kept = subject.debounce(for: 1, scheduler: ImmediateScheduler.shared)
            .sink { lines.append($0) }
        subject.send(1)
        subject.send(2)
        #expect(lines == [1, 2])
        withExtendedLifetime(kept) {}
    }
}
