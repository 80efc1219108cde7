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
        for profile in EngineChoice.registry.profiles {
            print(line(profile))
        }
        return 0
    }

    /// One engine's line: `sds  seed 000  72 rules (6 weaknesses)  11 probe points  …`.
    static func line(_ profile: EngineProfile) -> String {
        let catalogue = profile.catalogue
        let name = profile.name + String(repeating: " ", count: max(1, 10 - profile.name.count))
        return "\(name)seed \(profile.seed)  \(catalogue.rules.count) rules "
            + "(\(catalogue.weaknesses.count) weaknesses)  "
            + "\(profile.probePoints.count) probe points  \(profile.system) "
            + "(\(profile.cataloguePage))"
    }
}
