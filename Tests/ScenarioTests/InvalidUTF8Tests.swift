import Scenario
import Testing

/// A file that is not UTF-8 is placed at its first invalid byte, not at 1:1.
@Suite struct InvalidUTF8Tests {
    @Test func validTextHasNoLocation() {
        #expect(InvalidUTF8.firstLocation(in: Array("scenario \"é ✓\"\nwait 1s\n".utf8)) == nil)
        #expect(InvalidUTF8.firstLocation(in: [UInt8]()) == nil)
    }

    @Test func theFirstInvalidByteIsPlacedByLineAndScalarColumn() {
        // Line 3, after "a", "é" (two bytes, one scalar) and a space: column 4.
        let bytes = Array("line one\nline two\naé ".utf8) + [0xFF, 0xFE] + Array("\nmore\n".utf8)
        #expect(InvalidUTF8.firstLocation(in: bytes) == SourceLocation(line: 3, column: 4))
    }

    @Test func aTruncatedSequenceAtTheEndIsInvalid() {
        // The first two bytes of a three-byte sequence.
        let bytes = Array("ok\n".utf8) + [0xE2, 0x9C]
        #expect(InvalidUTF8.firstLocation(in: bytes) == SourceLocation(line: 2, column: 1))
    }
}
