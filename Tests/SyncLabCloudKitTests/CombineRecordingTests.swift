import Combine
import Foundation
import Testing

/// The rest of Combine's public surface that app code and its tests reach for: `Record`,
/// `Result.Publisher` and `Optional.Publisher`, `drop` / `prefix(untilOutputFrom:)`, key-path
/// maps, merges of five to eight, `AnySubscriber` of closures and `CombineIdentifier`.
@Suite struct CombineRecordingTests {
    struct Boom: Error, Equatable, Codable {}
    let boom = String(reflecting: Boom())

    final class Log: @unchecked Sendable {
        var lines: [String] = []
        var kept: [AnyCancellable] = []

        func sink<P: Publisher>(_ publisher: P, _ tag: String = "") {
            publisher.sink(receiveCompletion: { self.lines.append("\(tag)end \($0)") },
                           receiveValue: { self.lines.append("\(tag)\($0)") })
                .store(in: &kept)
        }
    }

    @Test func aRecordReplaysItsValuesThenItsCompletionToEachSubscriber() throws {
        let record = Record<Int, Boom> { recording in
            recording.receive(1)
            recording.receive(2)
            recording.receive(completion: .failure(Boom()))
        }
        let log = Log()
        log.sink(record, "a ")
        log.sink(record, "b ")
        #expect(log.lines == ["a 1", "a 2", "a end failure(\(boom))",
                              "b 1", "b 2", "b end failure(\(boom))"])
        // Left open, a recording finishes; `init(output:completion:)` is the same stream.
        let open = Record<String, Never> { $0.receive("x") }
        #expect(open.recording.output == ["x"] && open.recording.completion == .finished)
        let lines = Log()
        lines.sink(Record<String, Never>(output: ["y", "z"], completion: .finished))
        #expect(lines.lines == ["y", "z", "end finished"])
        // Coded as Apple's: the completion as `success` and `error`.
        let data = try JSONEncoder().encode(record)
        let decoded = try JSONDecoder().decode(Record<Int, Boom>.self, from: data)
        #expect(decoded.recording.output == [1, 2])
        #expect(decoded.recording.completion == .failure(Boom()))
        let finished = try JSONEncoder().encode(Subscribers.Completion<Boom>.finished)
        #expect(String(decoding: finished, as: UTF8.self) == #"{"success":true}"#)
    }

    @Test func aRecordWaitsForDemand() {
        final class One: Subscriber, @unchecked Sendable {
            var got: [String] = []
            var subscription: (any Subscription)?
            func receive(subscription: any Subscription) {
                self.subscription = subscription
                subscription.request(.max(1))
            }
            func receive(_ input: Int) -> Subscribers.Demand {
                got.append("\(input)")
                return .none
            }
            func receive(completion: Subscribers.Completion<Never>) { got.append("end") }
        }
        let one = One()
        Record<Int, Never>(output: [1, 2, 3], completion: .finished).receive(subscriber: one)
        #expect(one.got == ["1"])
        one.subscription?.request(.max(5))
        #expect(one.got == ["1", "2", "3", "end"])
    }

    @Test func resultAndOptionalPublishersSendWhatTheyHold() {
        let log = Log()
        log.sink(Result<Int, Boom>.success(7).publisher, "ok ")
        log.sink(Result<Int, Boom>.failure(Boom()).publisher, "bad ")
        log.sink(Result<Int, Boom>.Publisher(8), "init ")
        log.sink(Optional(3).publisher, "some ")
        log.sink(Optional<Int>.none.publisher, "none ")
        #expect(log.lines == [
            "ok 7", "ok end finished", "bad end failure(\(boom))",
            "init 8", "init end finished", "some 3", "some end finished", "none end finished",
        ])
    }

    @Test func dropUntilOutputLetsValuesThroughOnceTheOtherSends() {
        let log = Log()
        let values = PassthroughSubject<Int, Boom>()
        let gate = PassthroughSubject<Void, Boom>()
        log.sink(values.drop(untilOutputFrom: gate))
        values.send(1)
        gate.send()
        values.send(2)
        gate.send()
        values.send(3)
        values.send(completion: .finished)
        #expect(log.lines == ["2", "3", "end finished"])

        // The other's failure ends the stream; an other that already sent lets all through.
        let failing = Log()
        let more = PassthroughSubject<Int, Boom>()
        let broken = PassthroughSubject<Void, Boom>()
        failing.sink(more.drop(untilOutputFrom: broken))
        more.send(1)
        broken.send(completion: .failure(Boom()))
        more.send(2)
        #expect(failing.lines == ["end failure(\(boom))"])
        let open = Log()
        open.sink([1, 2].publisher.drop(untilOutputFrom: Just(())))
        #expect(open.lines == ["1", "2", "end finished"])
    }

    @Test func prefixUntilOutputFinishesWhenTheOtherSends() {
        let log = Log()
        let values = PassthroughSubject<Int, Never>()
        let stop = PassthroughSubject<String, Boom>()
        log.sink(values.prefix(untilOutputFrom: stop))
        values.send(1)
        values.send(2)
        stop.send("stop")
        values.send(3)
        #expect(log.lines == ["1", "2", "end finished"])

        // An other that ends without a value changes nothing; one that sent at once ends it.
        let kept = Log()
        let more = PassthroughSubject<Int, Never>()
        let quiet = PassthroughSubject<Void, Boom>()
        kept.sink(more.prefix(untilOutputFrom: quiet))
        quiet.send(completion: .failure(Boom()))
        more.send(1)
        #expect(kept.lines == ["1"])
        let at = Log()
        at.sink([1, 2].publisher.prefix(untilOutputFrom: Just(())))
        #expect(at.lines == ["end finished"])
    }

    @Test func cancellingUntilOutputCancelsTheOther() {
        var cancels: [String] = []
        let values = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<Int, Never>()
            .handleEvents(receiveCancel: { cancels.append("other") })
        let cancellable = values.prefix(untilOutputFrom: other).sink { _ in }
        cancellable.cancel()
        #expect(cancels == ["other"])
    }

    @Test func keyPathMapsTakeProperties() {
        struct Note { let title: String; let count: Int; let pinned: Bool }
        let log = Log()
        let notes = [Note(title: "a", count: 1, pinned: true)].publisher
        let title = \Note.title
        log.sink(notes.map(title), "one ")
        log.sink(notes.map(\.title, \.count), "two ")
        log.sink(notes.map(\.title, \.count, \.pinned), "three ")
        #expect(log.lines == ["one a", "one end finished", "two (\"a\", 1)", "two end finished",
                              "three (\"a\", 1, true)", "three end finished"])
    }

    @Test func mergesOfFiveToEightSendEveryValueInTheOrderItComes() {
        let log = Log()
        let subjects = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
        let s = subjects
        log.sink(s[0].merge(with: s[1], s[2], s[3], s[4]), "5 ")
        log.sink(s[0].merge(with: s[1], s[2], s[3], s[4], s[5]), "6 ")
        log.sink(s[0].merge(with: s[1], s[2], s[3], s[4], s[5], s[6]), "7 ")
        log.sink(s[0].merge(with: s[1], s[2], s[3], s[4], s[5], s[6], s[7]), "8 ")
        for (index, subject) in subjects.enumerated().reversed() { subject.send(index) }
        #expect(log.lines == ["8 7", "7 6", "8 6", "6 5", "7 5", "8 5",
                              "5 4", "6 4", "7 4", "8 4", "5 3", "6 3", "7 3", "8 3",
                              "5 2", "6 2", "7 2", "8 2", "5 1", "6 1", "7 1", "8 1",
                              "5 0", "6 0", "7 0", "8 0"])
        for subject in subjects { subject.send(completion: .finished) }
        #expect(log.lines.suffix(4) == ["5 end finished", "6 end finished", "7 end finished",
                                        "8 end finished"])
    }

    @Test func anySubscriberOfClosuresAndIdentifiers() {
        var got: [String] = []
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.max(2)) },
            receiveValue: { got.append("\($0)"); return .none },
            receiveCompletion: { got.append("end \($0)") })
        [1, 2, 3].publisher.subscribe(subscriber)
        #expect(got == ["1", "2"])
        // A subject as a subscriber sends on what it receives.
        let subject = PassthroughSubject<Int, Never>()
        let log = Log()
        log.sink(subject)
        [4, 5].publisher.subscribe(AnySubscriber(subject))
        #expect(log.lines == ["4", "5", "end finished"])
        // Identifiers: a class's is its own, a value's drawn once, an erased one its wrapped's.
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(sink.combineIdentifier == CombineIdentifier(sink))
        #expect(AnySubscriber(sink).combineIdentifier == sink.combineIdentifier)
        #expect(CombineIdentifier() != CombineIdentifier())
        #expect(subscriber.combineIdentifier == subscriber.combineIdentifier)
        #expect(CombineIdentifier().description.hasPrefix("0x"))
    }

    /// The trap itself ends the process (SIGTRAP without a debugger): `CombineBreakpointTrapTests`
    /// checks it in a forked child; here, the closures' calls and the values passing through.
    @Test func breakpointsAskTheirClosuresAndPassEverythingOn() {
        var asked: [String] = []
        let log = Log()
        log.sink(PassthroughSubject<Int, Boom>().breakpointOnError())
        let subject = PassthroughSubject<Int, Never>()
        log.sink(subject.breakpoint(receiveSubscription: { _ in asked.append("sub"); return false },
                                    receiveOutput: { asked.append("\($0)"); return false },
                                    receiveCompletion: { _ in asked.append("end"); return false }))
        subject.send(1)
        subject.send(completion: .finished)
        #expect(asked == ["sub", "1", "end"])
        #expect(log.lines == ["1", "end finished"])
    }
}
