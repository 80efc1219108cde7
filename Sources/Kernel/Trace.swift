/// The list of structured events of one run: the single source every report is made from.
///
/// A trace made with `recording: false` keeps only the count, so a benchmark pays for the
/// bookkeeping of a trace without holding millions of events in memory.
public struct Trace: Sendable, Equatable {
    public var events: [TraceEvent]
    /// Whether appended events are kept; when false only `count` moves.
    public let isRecording: Bool
    var countedOnly = 0

    public init(recording: Bool = true) {
        events = []
        isRecording = recording
    }

    /// The number of events appended, whether kept or only counted.
    public var count: Int {
        isRecording ? events.count : countedOnly
    }

    /// Counts one event a trace that is not recording does not keep, without the caller
    /// building it (`append` of an event only counted).
    public mutating func countUnkept() {
        precondition(!isRecording, "a recording trace keeps every event")
        countedOnly += 1
    }

    public mutating func append(_ event: TraceEvent) {
        if isRecording {
            events.append(event)
        } else {
            countedOnly += 1
        }
    }

    /// Every kept event in JSON Lines form: one line per event, each ending with `\n`.
    public func jsonLines() -> String {
        var bytes: [UInt8] = []
        for event in events {
            JSONWriter.write(event, into: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// One event as a JSON object with keys in the fixed order time, actor, kind, details,
    /// rules, and no spaces; for example `{"time":1500000,"actor":"phone",` continued by
    /// `"kind":"upload.sent","details":{"records":2},"rules":["SYNC-2"]}`.
    public static func jsonLine(_ event: TraceEvent) -> String {
        var bytes: [UInt8] = []
        JSONWriter.write(event, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same as `Trace.jsonLine(_:)`, for callers holding a trace.
    public func jsonLine(_ event: TraceEvent) -> String {
        Self.jsonLine(event)
    }
}
