import SyncContract

/// `synclab engines`: the registered engine profiles.
enum EnginesCommand {
    static let help = """
    USAGE: synclab engines

    Lists the engines scenarios can run on ('engine NAME' in a file, '--engine NAME' on
    run, report and explore): name, the seed it models, the number of rules of its
    catalogue (and how many are weaknesses), its probe points, and what it models.
    """

    static func main(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") { print(help); return 0 }
        if let unknown = arguments.first {
            return usageError("'engines' takes no arguments, not '\(unknown)'", command: "engines")
        }
        for line in lines(EngineChoice.registry.profiles) {
            print(line)
        }
        return 0
    }

    /// One line per engine, in columns as wide as their widest cell:
    /// `sds            seed 000  72 rules (6 weaknesses)  11 probe points  …`.
    static func lines(_ profiles: [EngineProfile]) -> [String] {
        let cells = profiles.map { profile in
            [
                profile.name,
                "seed \(profile.seed)",
                "\(profile.catalogue.rules.count) rules (\(profile.catalogue.weaknesses.count) weaknesses)",
                "\(profile.probePoints.count) probe points",
                "\(profile.system) (\(profile.cataloguePage))",
            ]
        }
        let widths = (0..<4).map { column in cells.map { $0[column].count }.max() ?? 0 }
        return cells.map { row in
            row.enumerated().map { column, cell in
                column < widths.count ? cell + String(repeating: " ", count: widths[column] - cell.count + 2) : cell
            }.joined()
        }
    }
}
