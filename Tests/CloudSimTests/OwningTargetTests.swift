@testable import CloudSim
import Testing

/// `CloudValue.hasOwningTarget`, the cascade's quick filter of the records that can be
/// deleted with a target (issue 19): it must agree with `owningTargets` on every shape.
@Suite struct OwningTargetTests {
    static let values: [CloudValue] = [
        .string("x"), .int(1), .double(2), .date(millisecondsSince1970: 3), .bytes([1]),
        .asset([2]), .reference("a"), .reference("b", action: .deleteSelf), .list([]),
        .list([.reference("c"), .string("y")]),
        .list([.reference("d"), .reference("e", action: .deleteSelf)]),
        .list([.list([.reference("f", action: .deleteSelf)])]),
        .list([.list([.reference("g")]), .int(4)]),
    ]

    @Test(arguments: values)
    func agreesWithTheListOfOwningTargets(_ value: CloudValue) {
        #expect(value.hasOwningTarget == !value.owningTargets.isEmpty)
    }

    @Test func onlyADeleteSelfReferenceOwns() {
        #expect(CloudValue.reference("b", action: .deleteSelf).hasOwningTarget)
        #expect(!CloudValue.reference("a").hasOwningTarget)
        #expect(CloudValue.list([.int(1), .reference("e", action: .deleteSelf)]).hasOwningTarget)
        #expect(!CloudValue.list([.reference("c")]).hasOwningTarget)
    }
}
