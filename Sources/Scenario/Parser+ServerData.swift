/// The arguments of the cloud actions that put server data in place (SyncLab additions).
extension Parser {
    /// `put-record ACCOUNT TYPE NAME [FIELD=VALUE …]`: NAME an identifier or a string.
    mutating func parsePutRecord() -> CloudAction? {
        guard let account = name("an account name"), let type = name("a record type") else {
            return nil
        }
        let word = current
        guard word.kind == .identifier || word.kind == .string else {
            report(.expected("a record name", found: word), at: word.location)
            return nil
        }
        advance()
        guard let fields = parseAssignments() else { return nil }
        return .putRecord(
            account: account, recordType: type, name: Located(word.value, at: word.location),
            fields: fields)
    }
}
