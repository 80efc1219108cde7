extension Array where Element == String {
    /// `joined(separator:)`, written out: the standard library's ran unspecialized here, and
    /// its first call looked an associated type up through the runtime, which scanned every
    /// conformance record of the binary.
    func joinedText(separator: String) -> String {
        var text = ""
        for position in indices {
            if position > 0 { text += separator }
            text += self[position]
        }
        return text
    }
}
