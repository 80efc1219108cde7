/// The version `synclab --version` prints.
enum SyncLabVersion {
    /// Raised with every release; `README.md` shows how to print it.
    static let current = "0.11.0"
}
