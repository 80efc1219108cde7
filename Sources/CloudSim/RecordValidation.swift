/// The naming rules of [CKRecord.ID] and [CKRecordZone.ID] (docs/CLOUDSIM.md row 35). Real CloudKit
/// raises most of them on the client; the simulator answers them as per-item `invalidArguments` so
/// a faulty engine is caught.
enum RecordValidation {
    static let maximumLength = 255

    /// The `invalidArguments` error of a save that breaks a naming rule, nil when it breaks
    /// none.
    static func nameError(of save: RecordSave) -> CloudError? {
        let record = save.record
        if let problem = recordNameProblem(record.recordName) {
            return CloudMessages.invalidName(
                "Invalid record name '\(record.recordName)': \(problem)")
        }
        let isShare = record.isShare
        if !isShare && !isIdentifier(record.recordType) {
            return CloudMessages.invalidName("Invalid record type '\(record.recordType)'")
        }
        // The name is ASCII here (checked above), so it equals the reserved name only with
        // as many bytes: most names are told apart by their length, not compared.
        if !isShare
            && record.recordName.utf8.count == CloudRecord.zoneShareRecordName.utf8.count
            && record.recordName == CloudRecord.zoneShareRecordName
        {
            return CloudMessages.invalidName(
                "Record name '\(record.recordName)' is reserved for zone-wide shares")
        }
        // Most saves name valid keys only: checked without building the sorted set of them
        // (a set, its union and a sort, on every save).
        if save.changedKeys.allSatisfy(isIdentifier), record.fields.allKeysSatisfy(isIdentifier) {
            return nil
        }
        let keys = Set(save.changedKeys).union(record.fields.keys).sorted()
        for key in keys where !isIdentifier(key) { // tidy: ordered (sorted above)
            if record.isShare && CloudRecord.shareSystemKeys.contains(key) { continue }
            return CloudMessages.invalidName("Invalid field key '\(key)'")
        }
        return nil
    }

    /// ASCII, 1 to 255 bytes, not starting with `_` (reserved).
    static func recordNameProblem(_ name: String) -> String? {
        // The bytes read in place, as one buffer when the string has them contiguous (a
        // native or small string), not walked byte by byte through the UTF-8 view.
        name.utf8.withContiguousStorageIfAvailable {
            recordNameProblem(memory: UnsafeRawBufferPointer($0))
        } ?? recordNameProblem(bytes: name.utf8)
    }

    /// `recordNameProblem` of bytes in memory, the ASCII check eight bytes at a time (a byte
    /// at a time, it was most of the check of a long name).
    private static func recordNameProblem(memory bytes: UnsafeRawBufferPointer) -> String? {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return "empty" }
        if count > maximumLength { return "longer than \(maximumLength) characters" }
        var highBits: UInt64 = 0
        var offset = 0
        while offset &+ 8 <= count {
            highBits |= base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset &+= 8
        }
        while offset < count {
            highBits |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self))
            offset &+= 1
        }
        if highBits & 0x8080_8080_8080_8080 != 0 { return "not ASCII" }
        if base.load(as: UInt8.self) == 0x5F { return "names starting with '_' are reserved" }
        return nil
    }

    /// `recordNameProblem` of a name's UTF-8 bytes.
    private static func recordNameProblem<Bytes: Collection<UInt8>>(bytes: Bytes) -> String? {
        if bytes.isEmpty { return "empty" }
        if bytes.count > maximumLength { return "longer than \(maximumLength) characters" }
        if !bytes.allSatisfy({ $0 < 0x80 }) { return "not ASCII" }
        // An ASCII name starts with `_` exactly when its first byte is one (no character
        // combines with it): no grapheme-aware prefix comparison.
        if bytes.first == 0x5F { return "names starting with '_' are reserved" }
        return nil
    }

    /// An ASCII letter, then letters, digits or `_`; at most 255 characters.
    static func isIdentifier(_ text: String) -> Bool {
        // The UTF-8 bytes read in place, as one buffer when the string has them contiguous
        // (a native or small string): the view's iterator decodes a small string's bytes
        // one call at a time, and this runs for every key of every save.
        text.utf8.withContiguousStorageIfAvailable { isIdentifier(bytes: $0) }
            ?? isIdentifier(bytes: text.utf8)
    }

    private static func isIdentifier<Bytes: Collection<UInt8>>(bytes: Bytes) -> Bool {
        guard let first = bytes.first, isLetter(first), bytes.count <= maximumLength else {
            return false
        }
        return bytes.allSatisfy { isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
