import Kernel
import Testing

/// Packed fields read back exactly as appended, whatever their text, and a text that is not a
/// packing is refused at the byte where reading stopped.
@Suite struct PackedTextTests {
    @Test func fieldsReadBackInOrderWhateverTheyHold() throws {
        var packed = PackedText()
        let texts = ["", "~", "12:ab", "é☃ note", "a\nb\"c\\"]
        for text in texts { packed.append(text) }
        packed.append(nil as String?)
        packed.append(Int64.min)
        packed.append(-7)
        packed.append(true)
        packed.append(false)
        var reader = PackedText.Reader(packed.text)
        for text in texts { #expect(try reader.text() == text) }
        #expect(try reader.optional() == nil)
        #expect(try reader.int64() == Int64.min)
        #expect(try reader.int() == -7)
        #expect(try reader.flag())
        #expect(try !reader.flag())
        #expect(reader.isAtEnd)
    }

    @Test func anEmptyPackingHoldsNothing() {
        var reader = PackedText.Reader(PackedText().text)
        #expect(reader.isAtEnd)
        #expect(throws: PackedText.Malformed(offset: 0)) { try reader.optional() }
    }

    @Test func aTextThatIsNotAPackingIsRefused() {
        for text in ["5:abc", "abc", "3abc", ":", "99999999999999999999999:x"] {
            var reader = PackedText.Reader(text)
            #expect(throws: PackedText.Malformed.self, "\(text)") { try reader.optional() }
        }
        var absent = PackedText.Reader("~")
        #expect(throws: PackedText.Malformed.self) { try absent.text() }
        var word = PackedText.Reader("3:yes")
        #expect(throws: PackedText.Malformed.self) { try word.flag() }
        var fraction = PackedText.Reader("3:1.5")
        #expect(throws: PackedText.Malformed.self) { try fraction.int64() }
    }
}
