/// Scenarios drawn from the format's grammar: mostly valid files (so runs, not only the
/// parser, are exercised) over a fixed schema, with every device and cloud action, faults of
/// every size, triggers at every probe point and expectations of every form.
struct ScenarioGenerator {
    static let probes = [
        "sync.start", "download.start", "download.page.fetched", "download.page.resolved",
        "download.page.stored", "download.page.saved", "download.done", "upload.start",
        "upload.sent", "upload.done", "sync.done",
    ]
    static let durations = [
        "0ms", "1ms", "50ms", "500ms", "2s", "30s", "10m", "1h", "2h", "100h", "1000h",
    ]
    /// Durations far past any budget (they must be placed errors, never overflow traps).
    static let hugeDurations = ["2562047788h", "9223372036854775807us", "2000000h"]

    /// Mostly ordinary durations, now and then a huge one.
    static func duration(_ random: inout FuzzRandom) -> String {
        random.chance(4) ? random.pick(hugeDurations) : random.pick(durations)
    }
    static let deviceActions = [
        "sync", "offline", "online", "kill", "launch", "stop", "start", "reset-sync-data",
        "reset-sync-data then delete-all", "initialize-schema", "sign-out", "sign-in alice",
        "sign-in bob", "account-unavailable", "account-available", "lose-store",
        "rebuild-store", "observe off", "observe on", "disk-full", "disk-ok", "autosync off",
        "autosync on", "begin", "save", "rollback", "batch-delete Note",
    ]
    static let errorCodes = [
        "serverRejectedRequest", "invalidArguments", "permissionFailure", "quotaExceeded",
        "zoneNotFound", "unknownItem", "serverRecordChanged", "limitExceeded",
    ]

    func generate(index: Int, random: inout FuzzRandom) -> String {
        var lines = ["scenario \"generated \(index)\"", "seed \(random.below(1000))", ""]
        lines += [
            "entity Note {", "  title: String = \"\"", "  body: String?", "  data: Data?",
            "  folder: Folder?", "}",
            "entity Folder {", "  name: String = \"\"", "  notes: [Note] inverse(folder)", "}", "",
        ]
        let twoAccounts = random.chance(30)
        lines.append("account alice")
        if twoAccounts { lines.append("account bob") }
        var devices = ["phone"]
        lines.append("device phone on alice" + (random.chance(20) ? " latency \(Self.duration(&random))" : ""))
        if random.chance(80) {
            devices.append("laptop")
            lines.append("device laptop on \(twoAccounts && random.chance(50) ? "bob" : "alice")")
        }
        if random.chance(25) {
            devices.append("widget")
            lines.append("device widget extension of phone" + (random.chance(50) ? " syncs Note(title)" : ""))
        }
        if random.chance(30) { lines.append("cloud latency \(Self.duration(&random))") }
        if random.chance(15) { lines.append("cloud push latency \(Self.duration(&random))") }
        if random.chance(10) { lines.append("cloud page-size \(1 + random.below(5))") }
        lines.append("")

        var labels: [String] = []
        var folders: [String] = []
        for _ in 0..<(4 + random.below(18)) {
            lines.append(statement(devices: devices, labels: &labels, folders: &folders, random: &random))
        }
        if random.chance(70) { lines.append("settle") }
        for _ in 0..<random.below(4) {
            lines.append(expectation(devices: devices, labels: labels, random: &random))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func value(_ random: inout FuzzRandom) -> String {
        if random.chance(2) { return random.pick(["text(1000000GB)", "text(9223372036854775807B)"]) }
        return random.pick(["\"a\"", "\"Groceries\"", "\"\"", "text(10KB)", "text(300KB)", "text(2MB)", "\"é💥\""])
    }

    private func statement(
        devices: [String], labels: inout [String], folders: inout [String], random: inout FuzzRandom
    ) -> String {
        let device = random.pick(devices)
        switch random.below(14) {
        case 0, 1, 2:
            if random.chance(25) {
                let label = "f\(folders.count + 1)"
                folders.append(label)
                return "\(device): insert Folder \(label) name=\(value(&random))"
            }
            let label = "n\(labels.count + 1)"
            labels.append(label)
            let folder = folders.isEmpty || random.chance(50) ? "" : " folder=\(random.pick(folders))"
            let data = random.chance(15) ? " data=bytes(\(random.pick(["1KB", "900KB", "2MB", "60MB"])))" : ""
            return "\(device): insert Note \(label) title=\(value(&random))\(folder)\(data)"
        case 3, 4:
            guard let label = labels.isEmpty ? nil : random.pick(labels) else { return "settle" }
            return "\(device): update \(label) \(random.chance(50) ? "title" : "body")=\(value(&random))"
        case 5:
            guard let label = labels.isEmpty ? nil : random.pick(labels) else { return "wait 1s" }
            return "\(device): delete \(label)"
        case 6, 7:
            return "\(device): \(random.pick(Self.deviceActions))" + (random.chance(10) ? " &" : "")
        case 8:
            return "wait \(Self.duration(&random))"
        case 9:
            return random.chance(50) ? "settle" : "wait until \(device) idle"
        case 10, 11:
            return "cloud: \(cloudAction(labels: labels, random: &random))"
        case 12:
            let action = random.chance(50)
                ? "\(random.pick(devices)): \(random.pick(Self.deviceActions))"
                : "cloud: \(cloudAction(labels: labels, random: &random))"
            let count = random.chance(30) ? " \(1 + random.below(3))" : ""
            return "when \(device) reaches \(random.pick(Self.probes))\(count): \(action)"
        default:
            return expectation(devices: devices, labels: labels, random: &random)
        }
    }

    private func cloudAction(labels: [String], random: inout FuzzRandom) -> String {
        let account = random.chance(85) ? "alice" : "bob"
        let duration = Self.duration(&random)
        switch random.below(14) {
        case 0: return "throttle \(account) for \(duration)"
        case 1: return "throttle \(account) next-upload \(1 + random.below(3)) records retry-after \(duration)"
        case 2: return "outage for \(duration)"
        case 3: return "fail-downloads \(account) for \(duration)"
        case 4: return "delete-zone \(account)"
        case 5: return "user-delete-zone \(account)"
        case 6: return "expire-tokens \(account)"
        case 7: return "quota \(account) \(random.chance(50) ? "full" : "ok")"
        case 8:
            guard let label = labels.isEmpty ? nil : random.pick(labels) else { return "deploy-schema" }
            return "reject \(label) with \(random.pick(Self.errorCodes))"
        case 9:
            guard let label = labels.isEmpty ? nil : random.pick(labels) else { return "deploy-schema" }
            return "accept \(label)"
        case 10: return "latency \(duration)"
        case 11: return "push latency \(duration)"
        case 12: return "push drop \(random.pick(["0%", "50%", "100%"]))"
        default: return "deploy-schema"
        }
    }

    private func expectation(devices: [String], labels: [String], random: inout FuzzRandom) -> String {
        let device = random.pick(devices)
        switch random.below(7) {
        case 0: return "expect converged"
        case 1: return "expect \(device): pending \(random.below(3))"
        case 2: return "expect \(device): state \(random.pick(["idle", "syncing", "stopped", "Idle"]))"
        case 3: return "expect \(device): \(random.chance(50) ? "" : "not ")fired \(random.pick(["SYNC-1", "SYNC-4", "ERR-1", "SYNC-99"]))"
        case 4:
            guard let label = labels.isEmpty ? nil : random.pick(labels) else { return "expect converged" }
            return "expect \(device): \(label) title=\"a\""
        case 5:
            guard let label = labels.isEmpty ? nil : random.pick(labels) else { return "expect converged" }
            return "expect cloud alice: \(label) title=\"a\""
        default: return "expect \(device): count Note = \(random.below(4))"
        }
    }
}
