import CloudSim
import EngineKit
import LocalStore
import Testing

@Suite struct ValueMappingTests {
    @Test func fieldValuesFollowTheSharedTable() {
        let upper = ValueMapping.fieldValues(uppercasingUUIDs: true)
        let asIs = ValueMapping.fieldValues(uppercasingUUIDs: false)
        #expect(upper.cloudValue(.date(millisecondsSince1970: 1500))
            == .date(millisecondsSince1970: 1500))
        #expect(upper.cloudValue(.uuid("ab")) == .string("ab"))
        #expect(upper.attributeValue(.string("ab"), type: .uuid) == .uuid("AB"))
        #expect(asIs.attributeValue(.string("ab"), type: .uuid) == .uuid("ab"))
        #expect(upper.attributeValue(.asset([1]), type: .data) == .data([1]))
    }

    @Test func secondsSince1970WritesDatesAsSecondsAndNoUUIDs() {
        let mapping = ValueMapping.secondsSince1970
        #expect(mapping.cloudValue(.date(millisecondsSince1970: 1500)) == .double(1.5))
        #expect(mapping.cloudValue(.uuid("ab")) == nil)
        #expect(mapping.cloudValue(.bool(true)) == .int(1))
        #expect(mapping.attributeValue(.double(1.5), type: .date)
            == .date(millisecondsSince1970: 1500))
        #expect(mapping.attributeValue(.date(millisecondsSince1970: 1500), type: .date) == nil)
        #expect(mapping.attributeValue(.string("ab"), type: .uuid) == nil)
        #expect(mapping.attributeValue(.int(2), type: .double) == .double(2))
    }
}
