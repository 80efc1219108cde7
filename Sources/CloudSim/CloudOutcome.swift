import Kernel

/// Everything that follows from the cloud handling one request.
public struct CloudOutcome: Sendable {
    /// The answer, delivered to the device after the return latency.
    public var response: CloudResponse
    /// Devices to send a silent push to (subscribed devices of the changed database's
    /// account, never the originator), sorted by name.
    public var pushes: [String]
    /// What the cloud did or observed, for the trace (e.g. a LIM-1 recreation).
    public var notes: [CloudNote]

    public init(response: CloudResponse, pushes: [String] = [], notes: [CloudNote] = []) {
        self.response = response
        self.pushes = pushes
        self.notes = notes
    }
}

/// One thing the cloud reports to the trace: a kind, ordered details and the rules it shows.
public struct CloudNote: Hashable, Sendable {
    public var kind: String
    /// Ordered key/value details; values are already rendered as text.
    public var details: [NoteField]
    public var rules: [String]

    public init(kind: String, details: [NoteField] = [], rules: [String] = []) {
        self.kind = kind
        self.details = details
        self.rules = rules
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
