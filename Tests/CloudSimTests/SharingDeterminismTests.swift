import CloudSim
import Kernel
import Testing

/// Sharing adds dictionaries (views per account, participants per share); the order they were
/// filled in never reaches an answer, a push list or a note.
@Suite struct SharingDeterminismTests {
    static let participants = (1...12).map { "user\($0)" }

    /// alice shares f1 with every participant, who subscribe and accept in `order`; then the
    /// owner changes a shared record and stops the share.
    func story(order: [String]) -> (CloudFixture, [CloudOutcome]) {
        let fixture = CloudFixture()
        fixture.makeTree()
        for account in order {
            fixture.share("f1", with: account, .readOnly)
        }
        for account in order {
            let device = CloudClient(device: "\(account)-device", account: account)
            fixture.send(.saveDatabaseSubscription(scope: .sharedDatabase), from: device)
            fixture.step(.accept, by: device)
        }
        var outcomes: [CloudOutcome] = []
        outcomes.append(fixture.modify(saves: [fixture.edit("n1", ["title": .string("new")])]))
        outcomes.append(fixture.modify(deletes: ["n2"]))
        outcomes.append(fixture.step(.stop, by: fixture.phone))
        return (fixture, outcomes)
    }

    @Test func acceptanceOrderDoesNotReachPushesOrNotes() {
        let (forward, forwardOutcomes) = story(order: Self.participants)
        let (backward, backwardOutcomes) = story(order: Self.participants.reversed())
        #expect(forwardOutcomes.map(\.pushes) == backwardOutcomes.map(\.pushes))
        #expect(forwardOutcomes.map(\.notes) == backwardOutcomes.map(\.notes))
        let devices = Self.participants.map { "\($0)-device" }.sorted()
        #expect(forwardOutcomes.first?.pushes == devices)
        let removed = forwardOutcomes.last?.notes("shared-zone.removed") ?? []
        #expect(removed.compactMap { $0.detail("account") } == Self.participants.sorted())
        for account in Self.participants {
            #expect(forward.cloud.accessLoss(of: account, to: forward.zone) == .shareStopped)
            #expect(backward.cloud.accessLoss(of: account, to: backward.zone) == .shareStopped)
        }
    }
}
