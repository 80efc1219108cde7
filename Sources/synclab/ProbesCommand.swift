import Engines

/// `synclab probes`: the probe points triggers can name, in the order a sync passes them.
enum ProbesCommand {
    static let help = """
    USAGE: synclab probes

    Lists the probe points of the engine, in the order one synchronization passes them.
    A trigger `when DEVICE reaches POINT [N]: ACTION` runs its action at the Nth time.

    OPTIONS:
      -h, --help         show this help
    """

    static let meanings: [String: String] = [
        "sync.start": "a synchronization begins (before the account check)",
        "download.start": "the download begins (SYNC-2: before any upload)",
        "download.page.fetched": "a page of the zone's changes arrived; nothing applied yet",
        "download.page.resolved": "(sds) the page was matched against the store: which records are new; "
            + "nothing stored yet (LIM-2 lives between this and the store)",
        "download.page.stored": "the page's records are saved in the store; its token not yet",
        "download.page.saved": "the page's change token is saved too (DL-1)",
        "download.done": "every page was downloaded",
        "upload.start": "the upload begins",
        "upload.sent": "an upload request left the device",
        "upload.done": "an upload's answer was handled (also once when nothing was to upload)",
        "sync.done": "the synchronization ended (also after an error)",
    ]

    static func main(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") { print(help); return 0 }
        if let unknown = arguments.first {
            return usageError("'probes' takes no arguments, not '\(unknown)'", command: "probes")
        }
        print("Probe points of engine '\(SDSEngine.name)', in order:")
        for point in SDSEngine.probePoints {
            let padded = point + String(repeating: " ", count: max(1, 24 - point.count))
            print("  \(padded)\(meanings[point] ?? "")")
        }
        return 0
    }
}
