/// The name the command line goes by in what it prints: `synclab`, or a lab's own executable
/// (`notes-lab`), whose engines `synclab` does not know.
enum ProgramName {
    /// Set by `SyncLabCLI.run` before any command reads it; workers only read it.
    nonisolated(unsafe) private(set) static var current = "synclab"

    static func use(_ name: String) {
        current = name
    }

    static var engineMissing: String {
        "'explore --swarm' needs '--engine NAME' (see '\(current) engines')"
    }

    /// `text` (a help text, a message) with each word `synclab` naming the executable that
    /// runs, so a lab's user is told commands that lab can run.
    static func named(_ text: String, as name: String = current) -> String {
        guard name != "synclab" else { return text }
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: "synclab") {
            let before = rest[..<range.lowerBound].last
            let after = rest[range.upperBound...].first
            // Not part of a longer name or a path: `synclab-1.scenario`, `synclab/Sources`.
            let isWord = !(before.map { $0.isLetter || "-_.".contains($0) } ?? false)
                && !(after.map { $0.isLetter || "-_./".contains($0) } ?? false)
            result += rest[..<range.lowerBound]
            result += isWord ? name : "synclab"
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    /// What `--version` prints: a lab's executable says which SyncLab it is built on.
    static func version(as name: String = current) -> String {
        name == "synclab" ? "synclab \(SyncLabVersion.current)"
            : "\(name) (SyncLab \(SyncLabVersion.current))"
    }

    /// Prints a command's help text under the executable's name.
    static func printHelp(_ help: String) {
        print(named(help))
    }
}
