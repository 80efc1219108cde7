/// Splits a diagram into the story and the routine traffic of each launch (account checks,
/// zones, subscriptions), so a report leads with what the scenario is about.
///
/// A device is launching from its `app.launched` note until its first arrow that moves data
/// (not routine, not the database's change list); routine rows in that span, and the
/// cloud's routine notes while any device launches, are folded out of the story and drawn
/// on their own.
/// Each run of folded rows leaves one gap row behind, so the story says where they were.
struct RoutineFold: Sendable {
    /// The diagram without the folded rows.
    var story: SequenceDiagram
    /// The folded rows alone, in order; empty when nothing was folded.
    var routine: SequenceDiagram

    static let routineRequests: Set<String> = [
        "accountStatus", "fetchUserRecordID", "modifyZones", "fetchZone", "saveSubscription",
        "saveQuerySubscription", "fetchSubscription", "saveZoneSubscription",
        "saveNamedDatabaseSubscription", "fetchAllSubscriptions",
    ]
    static let routineKinds: Set<String> = [
        "app.launched", "account.checked", "setup.step", "launch.nothing", "zone.created",
        "zone.missing", "zones.saved", "zones.ensured", "subscription.created",
        "subscription.missing",
    ]

    init(_ diagram: SequenceDiagram) {
        var launching: Set<String> = []
        var story: [SequenceStep] = []
        var routine: [SequenceStep] = []
        var folded: [SequenceStep] = []
        func flush() {
            guard let first = folded.first else { return }
            story.append(.gap(SequenceGap(time: first.time, text: Self.gapText(folded.count))))
            folded = []
        }
        for step in diagram.steps {
            let devices = Self.devices(of: step)
            if Self.isLaunch(step) { launching.formUnion(devices) }
            let during = devices.isEmpty ? !launching.isEmpty : devices.isSubset(of: launching)
            if during && Self.isRoutine(step) {
                folded.append(step)
                routine.append(step)
                continue
            }
            if Self.movesData(step) { launching.subtract(devices) }
            flush()
            story.append(step)
        }
        flush()
        self.story = SequenceDiagram(participants: diagram.participants, steps: story)
        self.routine = SequenceDiagram(participants: diagram.participants, steps: routine)
    }

    static func gapText(_ rows: Int) -> String {
        "\(rows) routine launch row\(rows == 1 ? "" : "s") folded (see Launch traffic below)"
    }

    /// The devices a row is about (the cloud is not one).
    static func devices(of step: SequenceStep) -> Set<String> {
        switch step {
        case .message(let message): return Set([message.from, message.to]).subtracting(["cloud"])
        case .note(let note): return Set(note.over).subtracting(["cloud"])
        case .highlight, .gap: return []
        }
    }

    /// An arrow other than routine traffic and the database's change list, which every
    /// launch fetches too.
    static func movesData(_ step: SequenceStep) -> Bool {
        guard case .message(let message) = step else { return false }
        let kind = requestKind(message.text)
        return !routineRequests.contains(kind) && kind != "fetchDatabaseChanges"
    }

    /// `accountStatus` of `r1 accountStatus ok`; "" for a push or a lost answer.
    static func requestKind(_ text: String) -> String {
        let words = text.split(separator: " ")
        return words.count > 1 ? String(words[1]) : ""
    }

    static func isLaunch(_ step: SequenceStep) -> Bool {
        guard case .note(let note) = step else { return false }
        return note.lines.contains { kind(of: $0.text) == "app.launched" }
    }

    static func isRoutine(_ step: SequenceStep) -> Bool {
        switch step {
        case .message(let message):
            return routineRequests.contains(requestKind(message.text))
        case .note(let note):
            guard note.kind == .rule || note.kind == .info else { return false }
            return note.lines.allSatisfy { routineKinds.contains(kind(of: $0.text)) }
        case .highlight, .gap:
            return false
        }
    }

    /// The event kind a note line starts with (`account.checked account=alice`).
    static func kind(of text: String) -> String {
        String(text.prefix { $0 != " " })
    }
}
