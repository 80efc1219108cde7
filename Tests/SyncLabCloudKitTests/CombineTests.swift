import CloudKit
import Combine
import Foundation
import SyncLabTesting
import Testing

/// The part of Combine an app's sync code uses (subjects, operators, sinks, `@Published`,
/// `objectWillChange`, `NotificationCenter`'s publisher), delivered at once and in order.
@Suite struct CombineTests {
    final class Log: @unchecked Sendable {
        var lines: [String] = []
        var cancellables = Set<AnyCancellable>()
    }

    final class Model: ObservableObject {
        @Published var count = 0
        @Published var title = "a"
    }

    final class Target {
        var value = 0
    }

    @Test func operatorsChangeAndDropValuesInOrder() {
        let log = Log()
        let subject = PassthroughSubject<Int, Never>()
        subject.filter { $0 != 2 }.map { $0 * 10 }.compactMap { $0 > 30 ? nil : "v\($0)" }
            .receive(on: ImmediateScheduler.shared)
            .sink(receiveCompletion: { log.lines.append("\($0)") },
                  receiveValue: { log.lines.append($0) })
            .store(in: &log.cancellables)
        for value in 1...4 { subject.send(value) }
        subject.send(completion: .finished)
        subject.send(5)
        #expect(log.lines == ["v10", "v30", "finished"])
    }

    @Test func dropFirstAndRemoveDuplicatesCountPerSubscription() {
        let model = Model()
        var lines: [Int] = []
        let kept = model.$count.dropFirst().removeDuplicates().sink { lines.append($0) }
        for value in [1, 1, 2, 2, 1] { model.count = value }
        #expect(lines == [1, 2, 1])
        var again: [Int] = []
        let second = model.$count.dropFirst(2).sink { again.append($0) }
        model.count = 5
        model.count = 6
        #expect(again == [6], "the current value and the next are left out")
        withExtendedLifetime((kept, second)) {}
    }

    @Test func aCurrentValueComesFirstAndACancelledSinkHearsNothing() {
        var lines: [Int] = []
        let subject = CurrentValueSubject<Int, Never>(1)
        let first = subject.sink { lines.append($0) }
        subject.send(2)
        first.cancel()
        subject.value = 3
        var kept: [AnyCancellable] = []
        subject.eraseToAnyPublisher().sink { lines.append($0 * 100) }.store(in: &kept)
        subject.send(4)
        #expect(lines == [1, 2, 300, 400])
        kept = []
        subject.send(5)
        #expect(lines == [1, 2, 300, 400], "a released cancellable cancels")
    }

    @Test func publishedSendsBeforeItStoresAndAnnouncesOnTheObject() {
        let model = Model()
        var lines: [String] = []
        let changes = model.objectWillChange.sink { lines.append("will \(model.count)") }
        let counts = model.$count.sink { lines.append("new \($0), stored \(model.count)") }
        model.count = 1
        model.title = "b"
        #expect(lines == ["new 0, stored 0", "will 0", "new 1, stored 0", "will 1"])
        withExtendedLifetime((changes, counts)) {}
    }

    @Test func assignAndJust() {
        let target = Target()
        let subject = PassthroughSubject<Int, Never>()
        let assigned = subject.assign(to: \.value, on: target)
        subject.send(7)
        #expect(target.value == 7)
        assigned.cancel()
        subject.send(8)
        #expect(target.value == 7)
        var seen: [String] = []
        _ = Just(3).sink(receiveCompletion: { seen.append("\($0)") },
                         receiveValue: { seen.append("\($0)") })
        #expect(seen == ["3", "finished"])
    }

    @Test func aDevicesNotificationPublisherHearsItsOwnDeviceOnly() throws {
        let world = try SimulatedWorld(seed: 5, accounts: ["alice", "bob"],
            devices: [("phone", "alice"), ("laptop", "alice")])
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let log = Log()
        for (name, device) in [("phone", phone), ("laptop", laptop)] {
            try device.run {
                NotificationCenter.default.publisher(for: .CKAccountChanged)
                    .sink { _ in
                        log.lines.append("\(name) on \(DeviceRuntime.current?.device ?? "-")")
                    }
                    .store(in: &log.cancellables)
            }
        }
        try phone.signIn("bob")
        try world.settle()
        #expect(log.lines == ["phone on phone"])
        log.lines = []
        try phone.run {
            NotificationCenter.default.post(name: .init("app.saved"), object: nil)
        }
        #expect(log.lines.isEmpty, "another name is not heard")
        log.cancellables = []
        try laptop.signIn("bob")
        try world.settle()
        #expect(log.lines.isEmpty, "a cancelled subscription hears nothing")
    }
}
