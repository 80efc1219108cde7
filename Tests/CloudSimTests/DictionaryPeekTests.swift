@testable import CloudSim
import Testing

/// `Dictionary.peek`, the cloud's in-place read of an account's or a zone's state (issue 19).
@Suite struct DictionaryPeekTests {
    struct State: Equatable {
        var name: String
        var sequence: Int
        var members: [String]
    }

    @Test func readsTheStoredValueOfAKeyAndNothingForAMissingOne() {
        var states = [
            "alice": State(name: "alice", sequence: 3, members: ["phone"]),
            "bob": State(name: "bob", sequence: 7, members: []),
        ]
        #expect(states.peek("alice") { $0.sequence } == 3)
        #expect(states.peek("bob") { $0.name } == "bob")
        #expect(states.peek("bob") { $0.members.count } == 0)
        #expect(states.peek("carol") { $0.sequence } == nil)
    }

    @Test func leavesTheDictionaryAsItWasAndSharedCopiesApart() {
        var states = ["alice": State(name: "alice", sequence: 3, members: ["phone", "laptop"])]
        let before = states
        #expect(states.peek("alice") { $0.members } == ["phone", "laptop"])
        #expect(states == before)
        // A copy sharing the storage is not changed through the other one's peek.
        var copy = states
        _ = copy.peek("alice") { $0.sequence }
        copy["alice"]?.sequence = 4
        #expect(states["alice"]?.sequence == 3)
        #expect(copy["alice"]?.sequence == 4)
    }

    @Test func aNestedOptionalFieldReadsAsNilWhenTheValueLacksIt() {
        var windows: [String: [String: Int]] = ["alice": ["zone": 5]]
        #expect(windows.peek("alice") { $0["zone"] } == .some(5))
        #expect((windows.peek("alice") { $0["other"] } ?? nil) == nil)
        #expect(windows.peek("bob") { $0["zone"] } == nil)
    }
}
