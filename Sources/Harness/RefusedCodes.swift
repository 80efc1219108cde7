import CloudSim

/// The CloudKit error codes one device was refused with: a bit per code (their raw values are
/// small), not a `Set<CloudErrorCode>`, whose first use in a process costs a scan of every
/// protocol conformance of the binary, and whose inserts hash.
struct RefusedCodes {
    private var bits: UInt64 = 0

    mutating func insert(_ code: CloudErrorCode) {
        precondition(code.rawValue >= 0 && code.rawValue < 64, "an error code past the bits")
        bits |= 1 << UInt64(code.rawValue)
    }

    /// The codes, by raw value.
    var codes: [CloudErrorCode] {
        (0..<64).compactMap { raw in
            bits & (1 << UInt64(raw)) == 0 ? nil : CloudErrorCode(rawValue: raw)
        }
    }
}
