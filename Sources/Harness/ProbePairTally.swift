/// The pairs of consecutive probe points each device passed, kept only for a run whose
/// coverage is read (`RunCoverage`): rule IDs tell which paths a run took, the pairs in
/// what order a device met them (`upload.start>download.page.1`).
struct ProbePairTally {
    /// The probe point each device passed last.
    private var last: [String?]
    /// Each pair met, as `first>second`.
    private var pairs: Set<String> = []

    init(devices: Int) {
        last = Array(repeating: nil, count: devices)
    }

    mutating func note(_ probe: String, device index: Int) {
        if let previous = last[index] { pairs.insert(previous + ">" + probe) }
        last[index] = probe
    }

    /// The pairs met, sorted.
    var sorted: [String] { pairs.sorted() }
}
