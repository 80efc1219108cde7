import Kernel

/// Everything that follows from the cloud handling one request.
public struct CloudOutcome: Sendable {
    /// The answer, delivered to the device after the return latency.
    public var response: CloudResponse
    /// Devices to send a silent push to (subscribed devices of the changed database's
    /// account, never the originator), sorted by name.
    public var pushes: [String]
    /// What the cloud did or observed, for the trace (e.g. a record a save re-created).
    public var notes: [CloudNote]

    public init(response: CloudResponse, pushes: [String] = [], notes: [CloudNote] = []) {
        self.response = response
        self.pushes = pushes
        self.notes = notes
    }
}

/// One thing the cloud reports to the trace: a kind, ordered details and the rules it shows.
///
/// The cloud knows no engine, so its notes name no engine's rule: which rule or weakness a
/// note shows (a re-created record is LIM-1 for `sds`, NAIVE-4 for `naive`) is the engine
/// profile's call (`EngineProfile.rules(for:)`, docs/CLOUDSIM.md *Notes*).
public struct CloudNote: Hashable, Sendable {
    public var kind: String
    /// Ordered key/value details; values are already rendered as text.
    public var details: [NoteField]
    public var rules: [String]
    /// Further facts for engine profiles that the trace does not show (e.g. the keys a
    /// re-creating save wrote), ordered; kept out of `details` so that traces stay stable.
    public var facts: [NoteField]

    public init(
        kind: String, details: [NoteField] = [], rules: [String] = [], facts: [NoteField] = []
    ) {
        self.kind = kind
        self.details = details
        self.rules = rules
        self.facts = facts
    }

    /// The value of a detail or fact, nil when the note has neither.
    public func value(of key: String) -> String? {
        (details + facts).first { $0.key == key }?.value
    }
}

/// One ordered detail of a note.
public struct NoteField: Hashable, Sendable {
    public var key: String
    public var value: String

    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}
