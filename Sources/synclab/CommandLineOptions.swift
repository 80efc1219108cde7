/// A small hand-written argument reader: flags, `--name value` / `--name=value`, positionals.
struct CommandLineOptions {
    private var remaining: [String]
    private(set) var problem: String?

    init(_ arguments: [String]) {
        remaining = arguments
    }

    /// Removes a flag and tells whether it was there.
    mutating func flag(_ name: String) -> Bool {
        guard let index = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: index)
        return true
    }

    /// Removes `--name value` or `--name=value` and returns the value.
    mutating func value(_ name: String) -> String? {
        if let index = remaining.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            let value = String(remaining[index].dropFirst(name.count + 1))
            remaining.remove(at: index)
            return value
        }
        guard let index = remaining.firstIndex(of: name) else { return nil }
        guard index + 1 < remaining.count else {
            problem = "'\(name)' needs a value"
            remaining.remove(at: index)
            return nil
        }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...(index + 1))
        return value
    }

    /// What is left once options were taken; an unknown `--option` is a problem.
    var positionals: [String] {
        remaining
    }

    /// The first argument that looks like an option nobody asked for.
    var unknownOption: String? {
        remaining.first { $0.hasPrefix("-") && $0 != "-" }
    }
}
