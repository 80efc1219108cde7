/// `synclab probes`: the probe points triggers can name, in the order a sync passes them.
enum ProbesCommand {
    static let help = """
    USAGE: synclab probes [--engine NAME]

    Lists the probe points of the engine (default sds), in the order one
    synchronization passes them: the contract's ten, which every engine passes in
    this order, with the engine's own among or after them. A trigger `when DEVICE
    reaches POINT [N]: ACTION` runs its action at the Nth time.

    OPTIONS:
      --engine NAME      the engine whose probe points to list ('synclab engines')
      -h, --help         show this help
    """

    static func main(_ arguments: [String]) -> Int32 {
        var options = CommandLineOptions(arguments)
        if options.flag("-h") || options.flag("--help") { ProgramName.printHelp(help); return 0 }
        let engine: String?
        switch EngineChoice.read(&options) {
        case .success(let name): engine = name
        case .failure(let error): return usageError(error.message, command: "probes")
        }
        if let problem = options.problem { return usageError(problem, command: "probes") }
        if let unknown = options.unknownOption ?? options.positionals.first {
            return usageError(
                "'probes' takes only '--engine NAME', not '\(unknown)'", command: "probes")
        }
        let profile = EngineChoice.profile(engine)
        print("Probe points of engine '\(profile.name)', in order:")
        for point in profile.probePoints {
            let padded = point.name + String(repeating: " ", count: max(1, 24 - point.name.count))
            for line in WordWrap.lines(point.meaning, first: "  " + padded, indent: 26,
                width: Terminal.width) {
                print(line)
            }
        }
        return 0
    }
}
