import CloudSim

/// A record name as the key of a map or set the engine fills and asks per record (e.g. the
/// names a run tried to upload, `RecordNameSet`), hashed by the cloud's record-name hash
/// (`RecordNameHash`).
///
/// `String`'s own hashing (SipHash over every byte, some 450 instructions for a 36-character
/// name) was most of each lookup (issue 19); here the name's bytes are hashed eight at a time
/// and `Hasher` mixes a single word. Equal when the names are (`RecordNameHash` is consistent
/// with `String`'s `==`); the buckets' order never shows.
struct RecordNameKey: Hashable, Sendable {
    let name: String

    init(_ name: String) {
        self.name = name
    }

    static func == (lhs: RecordNameKey, rhs: RecordNameKey) -> Bool {
        lhs.name == rhs.name
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(RecordNameHash.hash(name))
    }
}
