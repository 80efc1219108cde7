/// Where a scenario file's bytes stop being UTF-8: the contract's `FILE:LINE:COLUMN` of an
/// input error, for a file that cannot be read as text at all.
public enum InvalidUTF8 {
    /// The position of the first byte that does not begin a valid UTF-8 sequence (columns in
    /// Unicode scalars, as `SourceLocation` counts them), or nil when every byte is valid.
    public static func firstLocation<Bytes: Collection>(in bytes: Bytes) -> SourceLocation?
    where Bytes.Element == UInt8 {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var line = 1
        var column = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1, encoded.first == 0x0A {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                return nil
            case .error:
                return SourceLocation(line: line, column: column)
            }
        }
    }
}
