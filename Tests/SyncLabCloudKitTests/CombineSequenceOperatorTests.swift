import CloudKit
import Combine
import Foundation
import SyncLabTesting
import Testing

/// Combine's operators that fold a stream, cut it, join streams, share one, and the ones that
/// watch a stream: the values, the order and the endings Apple documents.
@Suite struct CombineSequenceOperatorTests {
    struct Boom: Error, Equatable {}

    final class Log: @unchecked Sendable {
        var lines: [String] = []
        var kept: [AnyCancellable] = []
        let subject = PassthroughSubject<Int, Never>()

        func sink<P: Publisher>(_ publisher: P, _ tag: String = "") {
            publisher.sink(receiveCompletion: { self.lines.append("\(tag)end \($0)") },
                           receiveValue: { self.lines.append("\(tag)\($0)") })
                .store(in: &kept)
        }
    }

    /// A subscriber that asks for `initial` values and one more per value only when told.
    final class Slow<Input>: Subscriber, @unchecked Sendable {
        typealias Failure = Never
        var got: [String] = []
        var subscription: (any Subscription)?
        let initial: Subscribers.Demand

        init(initial: Subscribers.Demand) { self.initial = initial }

        func receive(subscription: any Subscription) {
            self.subscription = subscription
            subscription.request(initial)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            got.append("\(input)")
            return .none
        }

        func receive(completion: Subscribers.Completion<Never>) { got.append("end") }
    }

    @Test func foldsSendOneResultWhenTheStreamFinishes() {
        let log = Log()
        let subject = PassthroughSubject<Int, Never>()
        log.sink(subject.reduce(0, +), "sum ")
        log.sink(subject.count(), "count ")
        log.sink(subject.last(), "last ")
        log.sink(subject.last(where: { $0 < 3 }), "lastSmall ")
        log.sink(subject.min(), "min ")
        log.sink(subject.max(), "max ")
        log.sink(subject.max(by: { $0 % 3 < $1 % 3 }), "maxMod ")
        for value in [4, 2, 5, 1, 3] { subject.send(value) }
        #expect(log.lines.isEmpty)
        subject.send(completion: .finished)
        #expect(log.lines == [
            "sum 15", "sum end finished", "count 5", "count end finished",
            "last 3", "last end finished", "lastSmall 1", "lastSmall end finished",
            "min 1", "min end finished", "max 5", "max end finished",
            "maxMod 2", "maxMod end finished",
        ])
    }

    @Test func anEmptyStreamGivesTheInitialResultOrNothing() {
        let log = Log()
        let empty = Empty<Int, Never>()
        log.sink(empty.reduce(7, +), "sum ")
        log.sink(empty.count(), "count ")
        log.sink(empty.last(), "last ")
        log.sink(empty.min(), "min ")
        log.sink(empty.contains(1), "has ")
        log.sink(empty.allSatisfy { $0 > 0 }, "all ")
        log.sink(empty.replaceEmpty(with: 42), "or ")
        log.sink([1].publisher.replaceEmpty(with: 42), "one ")
        #expect(log.lines == [
            "sum 7", "sum end finished", "count 0", "count end finished",
            "last end finished", "min end finished", "has false", "has end finished",
            "all true", "all end finished", "or 42", "or end finished",
            "one 1", "one end finished",
        ])
    }

    @Test func containsAndAllSatisfyDecideEarlyAndCancelTheUpstream() {
        let log = Log()
        var cancels = 0
        let subject = PassthroughSubject<Int, Boom>()
        let watched = subject.handleEvents(receiveCancel: { cancels += 1 })
        log.sink(watched.contains(2), "has ")
        log.sink(watched.allSatisfy { $0 < 2 }, "all ")
        log.sink(watched.contains { $0 > 10 }, "big ")
        subject.send(1)
        subject.send(2)
        #expect(log.lines == ["has true", "has end finished", "all false", "all end finished"])
        #expect(cancels == 2)
        subject.send(completion: .failure(Boom()))
        #expect(log.lines.last == "big end failure(\(String(reflecting: Boom())))")
    }

    @Test func aFoldWaitsForDemandBeforeItSends() {
        let slow = Slow<Int>(initial: .none)
        [1, 2, 3].publisher.reduce(0, +).receive(subscriber: slow)
        #expect(slow.got.isEmpty)
        slow.subscription?.request(.max(1))
        #expect(slow.got == ["6", "end"])
        let waiting = Slow<Int>(initial: .none)
        Empty<Int, Never>().replaceEmpty(with: 9).receive(subscriber: waiting)
        #expect(waiting.got.isEmpty)
        waiting.subscription?.request(.max(1))
        #expect(waiting.got == ["9", "end"])
    }

    @Test func cutsByConditionAndPosition() {
        let log = Log()
        let subject = PassthroughSubject<Int, Never>()
        log.sink(subject.drop(while: { $0 < 3 }), "drop ")
        log.sink(subject.prefix(while: { $0 < 3 }), "prefix ")
        log.sink(subject.output(at: 2), "at ")
        log.sink(subject.output(in: 1..<3), "in ")
        log.sink(subject.output(in: 3...), "from ")
        for value in [1, 2, 3, 1, 5] { subject.send(value) }
        #expect(log.lines == [
            "prefix 1", "prefix 2", "in 2", "drop 3", "prefix end finished",
            "at 3", "at end finished", "in 3", "in end finished",
            "drop 1", "from 1", "drop 5", "from 5",
        ])
    }

    @Test func tryFilterAndTryCompactMapEndWithTheThrownError() {
        let log = Log()
        let subject = PassthroughSubject<Int, Never>()
        log.sink(subject.tryFilter { value in
            guard value < 3 else { throw Boom() }
            return value.isMultiple(of: 2)
        }, "f ")
        log.sink(subject.tryCompactMap { value -> String? in
            guard value < 4 else { throw Boom() }
            return value == 2 ? nil : "v\(value)"
        }, "c ")
        for value in 1...4 { subject.send(value) }
        let failed = "end failure(\(String(reflecting: Boom())))"
        #expect(log.lines == ["c v1", "f 2", "f \(failed)", "c v3", "c \(failed)"])
    }

    @Test func prependAndAppendConcatenateWithDemandCarriedOver() {
        let log = Log()
        let subject = PassthroughSubject<Int, Never>()
        log.sink(subject.prepend(1, 2).append([8, 9]))
        log.sink(Just(0).prepend([7].publisher).append(Just(5)), "j ")
        subject.send(3)
        subject.send(completion: .finished)
        #expect(log.lines == ["1", "2", "j 7", "j 0", "j 5", "j end finished",
                              "3", "8", "9", "end finished"])
        let slow = Slow<Int>(initial: .max(3))
        [1, 2].publisher.append(3, 4).receive(subscriber: slow)
        #expect(slow.got == ["1", "2", "3"])
        slow.subscription?.request(.max(5))
        #expect(slow.got == ["1", "2", "3", "4", "end"])
    }

    @Test func zipPairsInOrderAndEndsWhenASideRunsOut() {
        let log = Log()
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<String, Never>()
        let third = PassthroughSubject<Bool, Never>()
        log.sink(left.zip(right), "z ")
        log.sink(left.zip(right, third).map { "\($0)\($1)\($2)" }, "z3 ")
        log.sink(left.zip(right) { "\($0)-\($1)" }, "t ")
        left.send(1)
        left.send(2)
        right.send("a")
        third.send(true)
        left.send(completion: .finished)
        right.send("b")
        right.send("c")
        #expect(log.lines == ["z (1, \"a\")", "t 1-a", "z3 1atrue", "z (2, \"b\")",
                              "z end finished", "t 2-b", "t end finished"])
    }

    @Test func threeWayCombineLatestAndMerge() {
        let log = Log()
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        log.sink(a.combineLatest(b, c).map { "\($0)\($1)\($2)" }, "cl ")
        log.sink(a.combineLatest(b, c) { $0 + $1 + $2 }, "sum ")
        log.sink(a.merge(with: b, c), "m ")
        a.send(1)
        b.send(2)
        c.send(3)
        a.send(4)
        for subject in [a, b, c] { subject.send(completion: .finished) }
        #expect(log.lines == ["m 1", "m 2", "cl 123", "sum 6", "m 3", "cl 423", "sum 9", "m 4",
                              "cl end finished", "sum end finished", "m end finished"])
    }

    @Test func printWritesEveryEventInApplesWords() {
        struct Lines: TextOutputStream {
            final class Box { var text = "" }
            let box = Box()
            mutating func write(_ string: String) { box.text += string }
        }
        let lines = Lines()
        let subject = PassthroughSubject<Int, Boom>()
        let kept = subject.print("edits", to: lines).sink(receiveCompletion: { _ in },
                                                          receiveValue: { _ in })
        subject.send(1)
        kept.cancel()
        _ = [5].publisher.print("seq", to: lines).count().sink { _ in }
        let written = lines.box.text.split(separator: "\n").map(String.init)
        #expect(written.count == 8)
        #expect(Array(written.prefix(4)) == [
            "edits: receive subscription: (PassthroughSubject)",
            "edits: request unlimited", "edits: receive value: (1)", "edits: receive cancel",
        ])
        #expect(written[4].hasPrefix("seq: receive subscription: ("))
        #expect(Array(written.suffix(3)) == [
            "seq: request unlimited", "seq: receive value: (5)", "seq: receive finished",
        ])
    }

    @Test func multicastSharesOneSubscriptionFromTheConnection() {
        let log = Log()
        var subscriptions = 0
        let subject = PassthroughSubject<Int, Never>()
        let source = subject.handleEvents(receiveSubscription: { _ in subscriptions += 1 })
        let shared = source.makeConnectable()
        log.sink(shared, "a ")
        log.sink(shared, "b ")
        subject.send(0)
        let connection = shared.connect()
        subject.send(1)
        connection.cancel()
        subject.send(2)
        let relay = PassthroughSubject<Int, Never>()
        let multicast = [7, 8].publisher.multicast(subject: relay)
        log.sink(multicast, "m ")
        let kept = multicast.connect()
        #expect(subscriptions == 1)
        #expect(log.lines == ["a 1", "b 1", "m 7", "m 8", "m end finished"])
        _ = kept
    }

    @Test func subscribeFeedsASubject() {
        let log = Log()
        let target = CurrentValueSubject<Int, Never>(0)
        log.sink(target)
        let feed = [1, 2].publisher.subscribe(target)
        #expect(log.lines == ["0", "1", "2", "end finished"])
        #expect(target.value == 2)
        _ = feed
    }

    @Test func measureIntervalAndSubscribeOnRunInSimulatedTime() throws {
        let world = try SimulatedWorld(seed: 3, devices: [("phone", "alice")])
        let phone = world.device("phone")
        let log = Log()
        try phone.run {
            log.sink(log.subject.measureInterval(using: DispatchQueue.main)
                .map { $0.magnitude / 1_000_000 }, "gap ")
            log.sink(log.subject.subscribe(on: DispatchQueue.main), "later ")
            log.subject.send(1)
        }
        for at in [250, 1000] {
            try world.advance(by: .milliseconds(at) - world.now)
            try phone.run { log.subject.send(at) }
        }
        #expect(log.lines == ["gap 0", "gap 250", "later 250", "gap 750", "later 1000"])
    }
}

/// Grouping by count and by time, and decoding: the batching sync code puts before a send.
@Suite struct CombineGroupingTests {
    struct Note: Codable, Equatable { let title: String }

    typealias Log = CombineSequenceOperatorTests.Log

    static var here: String { CombineTimeTests.here }

    @Test func collectByCountSendsFullGroupsThenTheRest() {
        let log = Log()
        log.sink((1...5).publisher.collect(2))
        log.sink(Empty<Int, Never>().collect(3), "none ")
        #expect(log.lines == ["[1, 2]", "[3, 4]", "[5]", "end finished", "none end finished"])
    }

    @Test func collectByTimeGroupsEachIntervalInSimulatedTime() throws {
        for count in [nil, 2] {
            let world = try SimulatedWorld(seed: 3, devices: [("phone", "alice")])
            let phone = world.device("phone")
            let log = Log()
            try phone.run {
                let strategy: Publishers.TimeGroupingStrategy<DispatchQueue> = count.map {
                    .byTimeOrCount(.main, .milliseconds(500), $0)
                } ?? .byTime(.main, .milliseconds(500))
                log.subject.collect(strategy)
                    .sink { log.lines.append("\($0) at \(Self.here)") }
                    .store(in: &log.kept)
            }
            for (value, at) in [(1, 0), (2, 100), (3, 300), (4, 1200)] {
                try world.advance(by: .milliseconds(at) - world.now)
                try phone.run { log.subject.send(value) }
            }
            try world.advance(by: .milliseconds(1700) - world.now)
            try phone.run {
                log.subject.send(5)
                log.subject.send(completion: .finished)
            }
            try world.settle()
            if count == nil {
                #expect(log.lines == ["[1, 2, 3] at 500 ms", "[4] at 1500 ms",
                                      "[5] at 1700 ms"])
            } else {
                #expect(log.lines == ["[1, 2] at 100 ms", "[3] at 600 ms", "[4] at 1600 ms",
                                      "[5] at 1700 ms"])
            }
        }
    }

    @Test func decodeAndEncodeThroughFoundationsCoders() throws {
        let log = Log()
        let data = try JSONEncoder().encode(Note(title: "milk"))
        log.sink([data, Data("{}".utf8)].publisher.decode(type: Note.self,
                                                           decoder: JSONDecoder())
            .map(\.title))
        log.sink(Just(Note(title: "eggs")).encode(encoder: JSONEncoder())
            .map { String(decoding: $0, as: UTF8.self) }, "json ")
        #expect(log.lines.count == 4)
        #expect(log.lines[0] == "milk")
        #expect(log.lines[1].hasPrefix("end failure(") && log.lines[1].contains("keyNotFound"))
        #expect(Array(log.lines.suffix(2)) == [#"json {"title":"eggs"}"#, "json end finished"])
    }
}

/// The `try` forms: the same values as their plain forms, and a thrown error ends the stream
/// with it, cancelling the upstream.
@Suite struct CombineTryOperatorTests {
    struct Boom: Error {}

    final class Log: @unchecked Sendable {
        var lines: [String] = []
        var kept: [AnyCancellable] = []

        func sink<P: Publisher>(_ publisher: P, _ tag: String) {
            publisher.sink(receiveCompletion: {
                if case .failure(let error) = $0 { self.lines.append("\(tag) \(error)") }
                else { self.lines.append("\(tag) end") }
            }, receiveValue: { self.lines.append("\(tag) \($0)") }).store(in: &kept)
        }
    }

    static func check(_ value: Int, over limit: Int) throws -> Int {
        guard value <= limit else { throw Boom() }
        return value
    }

    @Test func tryFormsGiveThePlainResultsUntilTheyThrow() {
        let log = Log()
        let values = [3, 1, 4, 1, 5].publisher
        log.sink(values.tryScan(0) { try Self.check($0 + $1, over: 100) }.collect(), "scan")
        log.sink(values.tryReduce(0) { try Self.check($0 + $1, over: 5) }, "reduce")
        log.sink(values.tryFirst { try Self.check($0, over: 9) > 3 }, "first")
        log.sink(values.tryLast { try Self.check($0, over: 9) < 3 }, "last")
        log.sink(values.tryContains { try Self.check($0, over: 3) == 4 }, "contains")
        log.sink(values.tryAllSatisfy { try Self.check($0, over: 9) > 0 }, "all")
        log.sink(values.tryMin { try Self.check($0, over: 9) < $1 }, "min")
        log.sink(values.tryMax { $0 < $1 }, "max")
        log.sink(values.tryDrop { try Self.check($0, over: 9) != 4 }.collect(), "drop")
        log.sink(values.tryPrefix { try Self.check($0, over: 9) != 4 }.collect(), "prefix")
        log.sink(values.tryRemoveDuplicates { $0 == $1 }
            .tryPrefix { try Self.check($0, over: 4) > 0 }.collect(), "dedupe")
        #expect(log.lines == [
            "scan [3, 4, 8, 9, 14]", "scan end", "reduce Boom()", "first 4", "first end",
            "last 1", "last end", "contains Boom()", "all true", "all end", "min 1", "min end",
            "max 5", "max end", "drop [4, 1, 5]", "drop end", "prefix [3, 1]", "prefix end",
            "dedupe Boom()",
        ])
    }

    @Test func tryCatchReplacesOrEndsWithTheHandlersError() {
        let log = Log()
        let failing = Fail<Int, Boom>(error: Boom())
        log.sink(failing.tryCatch { _ in Just(7) }, "caught")
        log.sink(failing.tryCatch { error -> Just<Int> in throw error }, "rethrown")
        log.sink(Just(1).setFailureType(to: Boom.self).tryCatch { _ in Just(0) }, "none")
        log.sink(Just(2).assertNoFailure("never"), "asserted")
        #expect(log.lines == ["caught 7", "caught end", "rethrown Boom()", "none 1", "none end",
                              "asserted 2", "asserted end"])
    }
}

/// Four-way joins and `buffer`'s strategies.
@Suite struct CombineBufferAndFourWayTests {
    final class Taker: Subscriber, @unchecked Sendable {
        typealias Input = Int
        typealias Failure = CombineSequenceOperatorTests.Boom
        var got: [String] = []
        var subscription: (any Subscription)?

        func receive(subscription: any Subscription) { self.subscription = subscription }
        func receive(_ input: Int) -> Subscribers.Demand {
            got.append("\(input)")
            return .none
        }
        func receive(completion: Subscribers.Completion<Failure>) { got.append("\(completion)") }
    }

    @Test func fourWayZipMergeAndCombineLatest() {
        var lines: [String] = []
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let (a, b, c, d) = (subjects[0], subjects[1], subjects[2], subjects[3])
        let kept = [
            a.zip(b, c, d).sink { lines.append("z \($0) \($1) \($2) \($3)") },
            a.merge(with: b, c, d).sink { lines.append("m \($0)") },
            a.combineLatest(b, c, d).sink { lines.append("c \($0 + $1 + $2 + $3)") },
        ]
        for (index, subject) in subjects.enumerated() { subject.send(index + 1) }
        d.send(10)
        #expect(lines == ["m 1", "m 2", "m 3", "z 1 2 3 4", "m 4", "c 10", "m 10", "c 16"])
        _ = kept
    }

    @Test func bufferKeepsWhatWasNotAskedForAndDropsByItsStrategy() {
        let subject = PassthroughSubject<Int, CombineSequenceOperatorTests.Boom>()
        let newest = Taker(), oldest = Taker(), failing = Taker()
        subject.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest)
            .receive(subscriber: newest)
        subject.buffer(size: 2, prefetch: .keepFull, whenFull: .dropOldest)
            .receive(subscriber: oldest)
        subject.buffer(size: 2, prefetch: .byRequest,
                       whenFull: .customError { CombineSequenceOperatorTests.Boom() })
            .receive(subscriber: failing)
        newest.subscription?.request(.max(1))
        for value in 1...4 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(newest.got == ["1"])
        newest.subscription?.request(.unlimited)
        #expect(newest.got == ["1", "2", "3", "finished"])
        #expect(oldest.got.isEmpty, "keepFull asked for two: 3 and 4 never came")
        oldest.subscription?.request(.unlimited)
        #expect(oldest.got == ["1", "2", "finished"])
        #expect(failing.got == ["failure(\(String(reflecting: CombineSequenceOperatorTests.Boom())))"])
    }
}
