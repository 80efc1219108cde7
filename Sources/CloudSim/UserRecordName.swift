/// Derives an account's user record name without randomness.
///
/// Real user record names are `_` followed by 32 hex digits; two FNV-1a 64-bit hashes with
/// different offset bases give the same shape, stable across processes and machines.
enum UserRecordName {
    static func make(for account: String) -> String {
        let first = fnv1a(account.utf8, basis: 0xcbf2_9ce4_8422_2325)
        let second = fnv1a(account.utf8, basis: 0x6c62_272e_07bb_0142)
        return "_" + hex(first) + hex(second)
    }

    static func fnv1a<Bytes: Sequence>(_ bytes: Bytes, basis: UInt64) -> UInt64
    where Bytes.Element == UInt8 {
        var hash = basis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// Sixteen lowercase hex digits, zero-padded.
    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

extension CloudService {
    /// The user record name of `account` (`CKContainer.userRecordID()`), for a client that
    /// names a user by account.
    public static func userRecordName(for account: String) -> String {
        UserRecordName.make(for: account)
    }
}
