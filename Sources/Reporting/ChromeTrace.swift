import Kernel
import Scenario

/// A trace in the Trace Event format (`{"traceEvents":[…]}`) that Perfetto and
/// chrome://tracing open: one process per device, then the cloud and the script, each with an
/// `events` thread of instants (a rule decision is named by its rule IDs) and `requests`
/// threads of spans from a request's sending to its answer. Times are simulated microseconds.
///
/// Keys come in a fixed order and the events in trace order, so the bytes are stable.
public enum ChromeTrace {
    /// The trace of a run of `scenario`.
    public static func json(scenario: ScenarioFile, events: [TraceEvent]) -> String {
        let participants = SequenceBuilder.participants(scenario: scenario, events: events)
        return json(participants: participants + ["script"], events: events)
    }

    /// `participants` in track order; an actor they lack is added after them.
    public static func json(participants: [String], events: [TraceEvent]) -> String {
        var tracks = participants
        for event in events where !tracks.contains(event.actor) { tracks.append(event.actor) }
        let pids = Dictionary(tracks.enumerated().map { ($1, $0 + 1) },
                              uniquingKeysWith: { first, _ in first })
        let spans = ChromeTraceSpans(events: events)
        var lines: [String] = []
        for (index, name) in tracks.enumerated() {
            let pid = index + 1
            lines.append(metadata("process_name", pid: pid, tid: 0, "\"name\":" + text(name)))
            lines.append(metadata("process_sort_index", pid: pid, tid: 0, "\"sort_index\":\(pid)"))
            lines.append(metadata("thread_name", pid: pid, tid: 1, "\"name\":\"events\""))
            for lane in 0..<spans.lanes(of: name) {
                let label = lane == 0 ? "requests" : "requests \(lane + 1)"
                lines.append(metadata("thread_name", pid: pid, tid: 2 + lane,
                                      "\"name\":" + text(label)))
            }
        }
        var spanIndex = 0
        for (position, event) in events.enumerated() {
            let pid = pids[event.actor] ?? 0
            while spanIndex < spans.spans.count, spans.spans[spanIndex].start == position {
                let span = spans.spans[spanIndex]
                lines.append("{\"name\":\(text(span.name)),\"cat\":\"request\",\"ph\":\"X\","
                    + "\"ts\":\(span.startTime),\"dur\":\(span.endTime - span.startTime),"
                    + "\"pid\":\(pid),\"tid\":\(2 + span.lane),\"args\":{\"request\":"
                    + "\(text(span.request)),\"outcome\":\(text(span.outcome))}}")
                spanIndex += 1
            }
            lines.append(instant(event, pid: pid))
        }
        return "{\"traceEvents\":[\n" + lines.joined(separator: ",\n")
            + "\n],\"displayTimeUnit\":\"ms\"}\n"
    }

    private static func metadata(_ name: String, pid: Int, tid: Int, _ args: String) -> String {
        "{\"name\":\"\(name)\",\"ph\":\"M\",\"pid\":\(pid),\"tid\":\(tid),\"args\":{\(args)}}"
    }

    /// An event as an instant on its actor's `events` thread; a decision is named
    /// `SYNC-2 upload.sent` so the rule reads on the track.
    private static func instant(_ event: TraceEvent, pid: Int) -> String {
        let name = (event.rules + [event.kind]).joined(separator: " ")
        let category = event.rules.isEmpty ? "event" : "rule"
        var args = event.details.map { text($0.key) + ":" + value($0.value) }
        if !event.rules.isEmpty {
            args.append("\"rules\":[" + event.rules.map(text).joined(separator: ",") + "]")
        }
        return "{\"name\":\(text(name)),\"cat\":\"\(category)\",\"ph\":\"i\",\"s\":\"t\","
            + "\"ts\":\(event.time.microseconds),\"pid\":\(pid),\"tid\":1,"
            + "\"args\":{\(args.joined(separator: ","))}}"
    }

    static func text(_ string: String) -> String { JSONText.string(string) }

    static func value(_ value: TraceValue) -> String {
        switch value {
        case .string(let string): return text(string)
        case .int(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .list(let items): return "[" + items.map(Self.value).joined(separator: ",") + "]"
        case .object(let fields):
            return "{" + fields.map { text($0.key) + ":" + Self.value($0.value) }
                .joined(separator: ",") + "}"
        }
    }
}
