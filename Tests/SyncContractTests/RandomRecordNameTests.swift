import Kernel
import LocalStore
import SyncContract
import Testing

/// `EngineContext.makeRandomRecordName()` formats its two draws byte by byte; these tests pin
/// it to the formatting it replaced (hexadecimal, zero-padded, uppercased, 8-4-4-4-12), so
/// every record name of every trace stays the same.
@Suite("Random record names")
struct RandomRecordNameTests {
    /// The formatting before the byte-by-byte writer, kept here as the reference.
    static func referenceName(_ high: UInt64, _ low: UInt64) -> String {
        func hex(_ value: UInt64) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: max(0, 16 - text.count)) + text
        }
        let characters = Array((hex(high) + hex(low)).uppercased())
        func slice(_ from: Int, _ to: Int) -> String { String(characters[from..<to]) }
        return [slice(0, 8), slice(8, 12), slice(12, 16), slice(16, 20), slice(20, 32)]
            .joined(separator: "-")
    }

    @Test("names match the reference formatting for many seeds, and draw two outputs each")
    func matchesTheReference() {
        for seed in UInt64(0)..<200 {
            var reference = Xoshiro256StarStar(seed: seed)
            var context = EngineContext<Empty>(
                now: .zero, device: "d", account: nil, accountStatus: .noAccount, isOnline: true,
                store: Store(schema: Schema(entities: [])), syncData: Empty(),
                names: Xoshiro256StarStar(seed: seed))
            for _ in 0..<5 {
                let high = reference.next()
                let low = reference.next()
                let name = context.makeRandomRecordName()
                #expect(name == Self.referenceName(high, low))
                #expect(name.utf8.count == 36)
            }
            #expect(context.names == reference)
        }
    }

    @Test("small and extreme draws are zero-padded, uppercase and grouped 8-4-4-4-12")
    func paddingAndGroups() {
        #expect(Self.referenceName(0, 0) == "00000000-0000-0000-0000-000000000000")
        #expect(Self.referenceName(.max, .max) == "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")
        #expect(Self.referenceName(0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210)
            == "01234567-89AB-CDEF-FEDC-BA9876543210")
        // The generator's output for a state chosen to give a small first word.
        var names = Xoshiro256StarStar(state: (1, 0, 0, 0))
        var copy = names
        let name = EngineContext<Empty>.randomRecordName(drawingFrom: &names)
        #expect(name == Self.referenceName(copy.next(), copy.next()))
        #expect(names == copy)
    }

    struct Empty: EngineSyncData {}
}
