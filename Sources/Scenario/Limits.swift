/// Bounds on what a scenario may ask for, so that no input makes the simulator allocate
/// more than a machine has (docs/FORMAT.md §6).
public enum Limits {
    /// The most bytes one `text(SIZE)` or `bytes(SIZE)` value may have: 50 MB.
    ///
    /// CloudKit stores at most 1 MB of fields per record; larger values travel as assets,
    /// and an asset field holds at most about 50 MB in practice. Nothing larger can reach
    /// iCloud, so nothing larger is worth generating.
    public static let maximumGeneratedBytes = 50 * 1_048_576

    /// A byte count in the largest unit of the format that writes it exactly (`50MB`).
    static func sizeText(_ bytes: Int) -> String {
        let units: [(String, Int)] = [("GB", 1_073_741_824), ("MB", 1_048_576), ("KB", 1_024)]
        for (name, size) in units where bytes >= size && bytes % size == 0 {
            return "\(bytes / size)\(name)"
        }
        return "\(bytes)B"
    }
}
