import SyncContract

/// `synclab engines`: the registered engine profiles, each explained in a few lines.
enum EnginesCommand {
    static let help = """
    USAGE: synclab engines

    Lists the engines scenarios can run on ('engine NAME' in a file, '--engine NAME'
    on run, check, report and explore): for each, what it models, the source
    document it models and its catalogue page, its rules by group, its weaknesses
    (the races and losses it does not resolve), its probe points in the order a
    synchronization passes them, and the commands that show more.

    OPTIONS:
      -h, --help         show this help
    """

    static func main(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") {
            ProgramName.printHelp(help)
            return 0
        }
        if let unknown = arguments.first {
            return usageError("'engines' takes no arguments, not '\(unknown)'", command: "engines")
        }
        for line in lines(EngineChoice.registry.profiles) {
            print(line)
        }
        return 0
    }

    /// Each field's name, padded to this width after a two-space indent.
    static let labelWidth = 14

    /// Per engine: `sds — SYSTEM`, then one wrapped field a line (source, rules, weaknesses,
    /// probe points, more); a blank line between engines.
    static func lines(_ profiles: [EngineProfile], width: Int = Terminal.width) -> [String] {
        var lines: [String] = []
        for (index, profile) in profiles.enumerated() {
            if index > 0 { lines.append("") }
            let head = profile.name + " — "
            lines += WordWrap.lines(profile.system, first: head, indent: 4, width: width)
            for (label, text) in fields(profile) { // tidy: ordered (an array, in field order)
                let head = "  " + label + String(repeating: " ", count: labelWidth - label.count)
                lines += WordWrap.lines(text, first: head, indent: 2 + labelWidth, width: width)
            }
        }
        return lines
    }

    /// The fields of one engine, in the order they are shown.
    static func fields(_ profile: EngineProfile) -> [(label: String, text: String)] {
        let catalogue = profile.catalogue
        // `SYNC(7)` without a space, so that wrapping never parts a group from its count.
        let groups = catalogue.groups.map { "\($0)(\(catalogue.rules(inGroup: $0).count))" }
        let weaknesses = catalogue.weaknesses.map(\.id)
        return [
            ("source:", "document \(profile.seed), catalogue \(profile.cataloguePage)"),
            ("rules:", "\(catalogue.rules.count) in \(groups.count) "
                + (groups.count == 1 ? "group: " : "groups: ")
                + groups.joined(separator: ", ")),
            ("weaknesses:", weaknesses.isEmpty ? "none" : weaknesses.joined(separator: ", ")),
            ("probe points:", profile.probePoints.map(\.name).joined(separator: ", ")),
            ("more:", "\(ProgramName.current) rules --engine \(profile.name); "
                + "\(ProgramName.current) probes --engine \(profile.name)"),
        ]
    }
}
