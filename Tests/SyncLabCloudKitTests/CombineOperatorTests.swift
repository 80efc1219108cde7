import CloudKit
import Combine
import Foundation
import SyncLabTesting
import Testing

/// Combine's operators beyond the basic ones, as sync code chains them: failures changed and
/// replaced, side effects, prefixes, folds, publishers merged and flattened, `assign(to:)`
/// and `values`.
@Suite struct CombineOperatorTests {
    struct Boom: Error, Equatable { var code = 1 }
    struct Wrapped: Error, Equatable { let inner: Boom }

    final class Log: @unchecked Sendable {
        var lines: [String] = []
        var kept: [AnyCancellable] = []

        func sink<P: Publisher>(_ publisher: P) {
            publisher.sink(receiveCompletion: { self.lines.append("end \($0)") },
                           receiveValue: { self.lines.append("\($0)") })
                .store(in: &kept)
        }
    }

    @Test func failuresAreChangedReplacedAndCaught() {
        let suite = "SyncLabCloudKitTests.CombineOperatorTests"
        let log = Log()
        let subject = PassthroughSubject<Int, Boom>()
        log.sink(subject.mapError { Wrapped(inner: $0) })
        log.sink(subject.replaceError(with: -1))
        log.sink(subject.catch { _ in Just(99).setFailureType(to: Boom.self) })
        log.sink(subject.tryMap { value -> Int in
            guard value < 2 else { throw Boom(code: value) }
            return value * 10
        })
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(Boom()))
        #expect(log.lines == [
            "1", "1", "1", "10",
            "2", "2", "2", "end failure(\(suite).Boom(code: 2))",
            "end failure(\(suite).Wrapped(inner: \(suite).Boom(code: 1)))",
            "-1", "end finished", "99", "end finished",
        ])
    }

    @Test func handleEventsSeesEachEventInOrder() {
        var events: [String] = []
        let subject = PassthroughSubject<Int, Never>()
        let kept = subject.handleEvents(
            receiveSubscription: { _ in events.append("subscribed") },
            receiveOutput: { events.append("output \($0)") },
            receiveCompletion: { events.append("completion \($0)") },
            receiveCancel: { events.append("cancel") },
            receiveRequest: { events.append("request \($0.max.map(String.init) ?? "all")") }
        ).sink { events.append("sink \($0)") }
        subject.send(4)
        kept.cancel()
        subject.send(5)
        #expect(events == ["subscribed", "request all", "output 4", "sink 4", "cancel"])
    }

    @Test func prefixesFoldsAndCollections() {
        let log = Log()
        let subject = PassthroughSubject<Int, Never>()
        log.sink(subject.first(where: { $0 > 1 }))
        log.sink(subject.prefix(2).map { "p\($0)" })
        log.sink(subject.scan(0, +).map { "s\($0)" })
        log.sink(subject.collect())
        for value in 1...3 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(log.lines == ["p1", "s1", "2", "end finished", "p2", "end finished", "s3",
                              "s6", "end finished", "[1, 2, 3]", "end finished"])
    }

    @Test func mergedCombinedAndFlattenedPublishers() {
        let log = Log()
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        log.sink(left.merge(with: right).map { "m\($0)" })
        log.sink(left.combineLatest(right) { "c\($0)+\($1)" })
        left.send(1)
        right.send(2)
        left.send(3)
        left.send(completion: .finished)
        right.send(completion: .finished)
        #expect(log.lines == ["m1", "m2", "c1+2", "m3", "c3+2", "end finished", "end finished"])
        var many: [String] = []
        let third = PassthroughSubject<Int, Never>()
        let manyKept = left.merge(with: right, third)
            .sink(receiveCompletion: { many.append("\($0)") },
                  receiveValue: { many.append("\($0)") })
        third.send(9)
        third.send(completion: .finished)
        #expect(many == ["9", "finished"], "the ended subjects end their subscriptions at once")
        withExtendedLifetime(manyKept) {}
        var none: [String] = []
        _ = Publishers.MergeMany([Empty<Int, Never>]()).sink(
            receiveCompletion: { none.append("\($0)") }, receiveValue: { none.append("\($0)") })
        #expect(none == ["finished"])

        let flat = Log()
        let outer = PassthroughSubject<String, Never>()
        let inners = ["a": PassthroughSubject<Int, Never>(), "b": PassthroughSubject<Int, Never>()]
        flat.sink(outer.flatMap(maxPublishers: .max(1)) { inners[$0]! })
        outer.send("a")
        outer.send("b")
        inners["b"]!.send(20)
        inners["a"]!.send(1)
        inners["a"]!.send(completion: .finished)
        outer.send(completion: .finished)
        inners["b"]!.send(2)
        inners["b"]!.send(completion: .finished)
        #expect(flat.lines == ["1", "end finished"],
                "one inner at a time: 'b' was never asked for while 'a' ran")
        let doubled = Just(1).flatMap { Just($0 * 2) }
        var seen: [Int] = []
        _ = doubled.sink { seen.append($0) }
        #expect(seen == [2])
    }

    final class Model: ObservableObject {
        @Published var title = ""
    }

    @Test func assignToAPublishedPropertyLivesWithIt() {
        let model = Model()
        var announced = 0
        let changes = model.objectWillChange.sink { announced += 1 }
        let subject = PassthroughSubject<String, Never>()
        subject.map { $0.uppercased() }.assign(to: &model.$title)
        subject.send("draft")
        #expect(model.title == "DRAFT")
        #expect(announced == 1)
        withExtendedLifetime(changes) {}
    }

    @Test func valuesIterateOnADeviceInItsOrder() throws {
        let world = try SimulatedWorld(seed: 4, devices: [("phone", "alice")])
        let phone = world.device("phone")
        let log = Log()
        final class Holder: @unchecked Sendable { let subject = PassthroughSubject<Int, Boom>() }
        let holder = Holder()
        try phone.run {
            Task {
                do {
                    for try await value in holder.subject.values { log.lines.append("got \(value)") }
                    log.lines.append("done")
                } catch {
                    log.lines.append("threw \(error)")
                }
            }
        }
        for value in [1, 2] {
            try world.advance(by: .milliseconds(10))
            try phone.run { holder.subject.send(value) }
        }
        try phone.run { holder.subject.send(completion: .failure(Boom(code: 7))) }
        try world.settle()
        #expect(log.lines == ["got 1", "got 2", "threw Boom(code: 7)"])
    }

    @Test func sequencesSharingRetriesAndTheLatestInnerPublisher() {
        let log = Log()
        log.sink([1, 2, 3].publisher.map { "q\($0)" })
        var subscriptions = 0
        let subject = PassthroughSubject<Int?, Never>()
        let sharing = subject.handleEvents(receiveSubscription: { _ in subscriptions += 1 })
            .share()
        log.sink(sharing.replaceNil(with: 0).map { "a\($0)" })
        log.sink(sharing.ignoreOutput())
        subject.send(nil)
        subject.send(completion: .finished)
        #expect(subscriptions == 1, "one subscription upstream for both")

        var attempts = 0
        log.sink(Deferred { () -> AnyPublisher<String, Boom> in
            attempts += 1
            return attempts < 3 ? Fail(error: Boom(code: attempts)).eraseToAnyPublisher()
                : Just("third").setFailureType(to: Boom.self).eraseToAnyPublisher()
        }.retry(2))

        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let (first, second) = (PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>())
        log.sink(outer.switchToLatest().map { "l\($0)" })
        outer.send(first)
        first.send(1)
        outer.send(second)
        first.send(2)
        second.send(3)
        outer.send(completion: .finished)
        second.send(completion: .finished)
        #expect(log.lines == ["q1", "q2", "q3", "end finished", "a0", "end finished",
                              "end finished", "third", "end finished", "l1", "l3",
                              "end finished"])
    }
}
