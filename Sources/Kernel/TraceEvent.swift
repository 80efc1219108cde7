/// One structured entry of a trace: when, who, what happened, its details, the rules it fired.
public struct TraceEvent: Sendable, Equatable {
    public var time: SimTime
    public var actor: String
    public var kind: String
    public var details: [TraceField]
    public var rules: [String]

    public init(
        time: SimTime, actor: String, kind: String,
        details: [TraceField] = [], rules: [String] = []
    ) {
        self.time = time
        self.actor = actor
        self.kind = kind
        self.details = details
        self.rules = rules
    }

    /// This event as one JSON Lines line, without the trailing newline.
    public var jsonLine: String {
        Trace.jsonLine(self)
    }
}
