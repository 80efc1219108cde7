import Kernel

/// One seed's world for `synclab explore --swarm`: a chaos file drawn from the seed alone —
/// the schema's features, the devices, the operation mix, the fault kinds and their rates,
/// the latency — so a sweep varies the configuration as well as the schedule (swarm
/// testing). What the engine refuses is dropped when the file is checked (`SwarmExplorer`).
public struct SwarmWorld: Hashable, Sendable {
    public var seed: UInt64
    /// The features drawn, in drawing order (`relationship`, `identity`, `asset`, …).
    public var features: [String]
    /// The chaos file's text.
    public var source: String

    /// The text that shows a feature is still in the file once the engine's refusals are
    /// left out (a feature without one, such as the device count, is always kept).
    static func marker(of feature: String) -> String? {
        switch feature {
        case "relationship": return "folder: Folder?"
        case "identity": return "identity(label)"
        case "asset": return "attachment: Data? asset"
        case "large-values": return "% large "
        case "sharable": return "  sharable"
        case "cascade": return "inverse(folder) cascade"
        case "older-app": return requiredLine
        case "sharing": return "  sharable"
        case "batch-delete": return " batch-delete "
        default:
            return faultKinds.contains(feature) ? "chaos fault \(feature) " : nil
        }
    }

    /// The required attribute (neither optional nor defaulted) of the `older-app` feature,
    /// which the older app's device does not synchronize.
    static let requiredLine = "  summary: String"
    /// The older app's device line, before its `syncs` clause.
    static let olderDevice = "device old-phone on alice"

    static let faultKinds = [
        "offline", "kill", "sync", "stop", "account-unavailable", "race", "throttle",
        "throttle-upload", "outage", "expire-tokens", "delete-zone", "user-delete-zone", "quota",
        "push-drop",
        "latency", "reject", "sign-out", "switch-account",
    ]

    /// The device of the second account in a world that draws `sharing`.
    static let sharingDevice = "device bob-phone on bob"

    /// The world of `seed`; the same seed always gives the same text. With `base` (a
    /// scenario or chaos file: a user's own schema, accounts and devices), only the chaos
    /// lines are drawn and the file's own chaos lines are replaced. `sharing`: whether the
    /// engine carries out the sharing steps, and a base has something to share with another
    /// account (a world that cannot never draws them).
    public init(seed: UInt64, base: String? = nil, sharing: Bool = true) {
        var random = Xoshiro256StarStar(seed: RandomStreams(seed: seed).streamSeed("swarm"))
        var features: [String] = []
        var lines: [String]
        let steps = SwarmSteps(seed: seed, sharing: sharing)
        if let base {
            lines = base.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                .filter { !$0.trimmingPrefix(while: \.isWhitespace).hasPrefix("chaos ") }
            lines.append("")
            lines.append(Self.workload(&random, devices: []))
            if steps.sharing { features.append("sharing") }
            if steps.batchDelete { features.append("batch-delete") }
            let large = random.chance(1, in: 4)
            lines.append(Self.mix(
                &random, relationship: true, large: large,
                extra: steps.shares(sharing: steps.sharing)))
        } else {
            lines = Self.setup(&random, seed: seed, steps: steps, features: &features)
        }
        let faults = Self.faults(&random)
        let kinds = faults.map { String($0.split(separator: " ")[2]) }
        features += kinds
        // A switch needs an account to go to; a base file brings its own.
        if base == nil, kinds.contains("switch-account"), !lines.contains("account bob"),
            let alice = lines.firstIndex(of: "account alice")
        {
            lines.insert("account bob", at: alice + 1)
        }
        lines += faults
        lines.append("chaos heal within 1h")
        lines.insert("# Drawn by 'synclab explore --swarm': \(features.joined(separator: ", ")).",
                     at: 0)
        self.seed = seed
        self.features = features
        source = lines.joined(separator: "\n") + "\n"
    }

    /// The drawn schema, accounts, devices, latency, workload and mix.
    private static func setup(
        _ random: inout Xoshiro256StarStar, seed: UInt64, steps: SwarmSteps,
        features: inout [String]
    ) -> [String] {
        func draw(_ feature: String, _ percent: UInt64) -> Bool {
            let drawn = random.chance(percent, in: 100)
            if drawn { features.append(feature) }
            return drawn
        }
        let relationship = draw("relationship", 60)
        let identity = draw("identity", 35)
        let asset = draw("asset", 30)
        let large = draw("large-values", 25)
        // Sharing needs a root to share: it makes the folder sharable.
        let sharing = relationship && steps.sharing
        let sharable = relationship && draw("sharable", 25) || sharing
        let cascade = relationship && draw("cascade", 40)
        // A device on an older app version that leaves a required attribute out of its
        // records, which another device's store then refuses (outbox: OBXW-4).
        let olderApp = draw("older-app", 20)
        let deviceCount = Int(random.int(in: 2...4))
        features.append("\(deviceCount) devices")
        if sharing { features.append("sharing") }
        if steps.batchDelete { features.append("batch-delete") }
        var lines = [
            "scenario \"Swarm world of seed \(seed)\"",
            "",
            "entity Note {",
            "  title: String = \"\"",
            "  body: String?",
            "  pinned: Bool = false",
            "  count: Int = 0",
        ]
        if olderApp { lines.append(requiredLine) }
        if asset { lines.append("  attachment: Data? asset") }
        if relationship { lines.append("  folder: Folder?" + (sharable ? " parent" : "")) }
        lines.append("}")
        if relationship {
            lines += ["entity Folder {", "  name: String = \"\"",
                      "  notes: [Note] inverse(folder)" + (cascade ? " cascade" : "")]
            if sharable { lines.append("  sharable") }
            lines.append("}")
        }
        if identity {
            lines += ["entity Tag {", "  label: String = \"\"", "  identity(label)", "}"]
        }
        lines += ["", "account alice"] + (sharing ? ["account bob"] : [])
        var names = Array(["phone", "laptop", "tablet", "watch"].prefix(deviceCount))
        lines += names.map { "device \($0) on alice" }
        if olderApp {
            var keys = ["title", "body", "pinned", "count"]
            if asset { keys.append("attachment") }
            if relationship { keys.append("folder") }
            let others = (relationship ? " Folder" : "") + (identity ? " Tag" : "")
            lines.append(olderDevice + " syncs Note(\(keys.joined(separator: ", ")))" + others)
            names.append("old-phone")
        }
        if sharing {
            lines.append(sharingDevice)
            names.append("bob-phone")
        }
        let low = random.int(in: 10...150)
        lines.append("cloud latency \(low)ms..\(low + random.int(in: 0...400))ms")
        lines.append("")
        lines.append(workload(&random, devices: names))
        lines.append(mix(
            &random, relationship: relationship, large: large,
            extra: steps.shares(sharing: sharing)))
        return lines
    }

    private static func workload(_ random: inout Xoshiro256StarStar, devices: [String]) -> String {
        let operations = random.int(in: 30...120)
        let slow = random.int(in: 1...3)
        let by = devices.isEmpty ? "" : " by " + devices.joined(separator: ", ")
        return "chaos workload \(operations) operations\(by) every 100ms..\(slow)s"
    }

    /// The mix; the `extra` kinds' shares are taken from the inserts' (at least 20%).
    private static func mix(
        _ random: inout Xoshiro256StarStar, relationship: Bool, large: Bool,
        extra: [(kind: String, percent: Int64)] = []
    ) -> String {
        let link = relationship ? random.int(in: 5...20) : 0
        let big = large ? random.int(in: 5...15) : 0
        let delete = random.int(in: 5...25)
        let drawn = random.int(in: 20...40)
        let insert = drawn - extra.reduce(0) { $0 + $1.percent }
        let update = 100 - link - big - delete - drawn
        var parts = ["insert \(insert)%", "update \(update)%", "delete \(delete)%"]
        if link > 0 { parts.append("link \(link)%") }
        if big > 0 { parts.append("large \(big)%") }
        parts += extra.map { "\($0.kind) \($0.percent)%" }
        return "chaos mix " + parts.joined(separator: " ")
    }

    /// Two to six fault kinds, each at 0.5% to 6%.
    private static func faults(_ random: inout Xoshiro256StarStar) -> [String] {
        var kinds = faultKinds
        let count = Int(random.int(in: 2...6))
        var chosen: [String] = []
        for _ in 0..<count {
            let index = Int(random.uniform(below: UInt64(kinds.count)))
            chosen.append(kinds.remove(at: index))
        }
        return chosen.map { kind in
            let tenths = random.int(in: 5...60)
            return "chaos fault \(kind) \(tenths / 10).\(tenths % 10)%"
        }
    }
}
