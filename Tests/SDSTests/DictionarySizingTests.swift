@testable import SDS
import Testing

/// `Dictionary.sized` makes an empty map with room for the capacity asked, which then holds
/// and answers like any map (it sizes a downloaded record's values, issue 19).
@Suite struct DictionarySizingTests {
    @Test(arguments: [0, 1, 2, 7, 8, 100, 1000])
    func isEmptyWithRoomForTheCapacityAsked(capacity: Int) {
        var map = [String: Int].sized(capacity)
        #expect(map.isEmpty)
        #expect(map.capacity >= capacity)
        let before = map.capacity
        for index in 0..<capacity { map["key-\(index)"] = index }
        #expect(map.count == capacity)
        // Filled to the capacity asked, it did not have to grow.
        #expect(map.capacity == before)
        for index in 0..<capacity { #expect(map["key-\(index)"] == index) }
        #expect(map["key-\(capacity)"] == nil)
    }
}
