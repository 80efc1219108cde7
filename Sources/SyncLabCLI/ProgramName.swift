/// The name the command line goes by in the lines it prints to run something again: `synclab`,
/// or a lab's own executable (`notes-lab`), whose engines `synclab` does not know.
enum ProgramName {
    /// Set by `SyncLabCLI.run` before any command reads it; workers only read it.
    nonisolated(unsafe) private(set) static var current = "synclab"

    static func use(_ name: String) {
        current = name
    }

    static var engineMissing: String {
        "'explore --swarm' needs '--engine NAME' (see '\(current) engines')"
    }
}
