import Kernel

/// Each request of a trace as a span, from its `request.sent` to its answer (or its loss or
/// failure), laid on the first lane of its device free at its start, so spans on one thread
/// never overlap.
struct ChromeTraceSpans {
    struct Span {
        /// The index of the `request.sent` event.
        var start: Int
        var startTime: Int64
        var endTime: Int64
        var name: String
        var request: String
        var outcome: String
        var lane: Int
    }

    /// In the order of their `request.sent` events.
    private(set) var spans: [Span] = []
    private var laneCounts: [String: Int] = [:]

    init(events: [TraceEvent]) {
        var open: [String: Int] = [:]
        var actors: [Int: String] = [:]
        func close(_ key: String, at time: Int64, _ outcome: String) {
            guard let index = open.removeValue(forKey: key) else { return }
            spans[index].endTime = time
            spans[index].outcome = outcome
        }
        for (position, event) in events.enumerated() {
            guard let request = TraceDetailText.string("request", in: event.details) else {
                continue
            }
            let key = SequenceBuilder.key(event.actor, request)
            let time = event.time.microseconds
            switch event.kind {
            case "request.sent":
                close(key, at: time, "superseded")
                let kind = TraceDetailText.string("kind", in: event.details) ?? "request"
                open[key] = spans.count
                actors[spans.count] = event.actor
                spans.append(Span(start: position, startTime: time, endTime: time, name: kind,
                                  request: request, outcome: "unanswered", lane: 0))
            case "response.received": close(key, at: time, "answered")
            case "response.lost": close(key, at: time, "answer lost")
            case "request.failed": close(key, at: time, "failed")
            default: break
            }
        }
        let end = events.last?.time.microseconds ?? 0
        for index in open.values.sorted() { spans[index].endTime = end }
        var busyUntil: [String: [Int64]] = [:]
        for index in spans.indices {
            let actor = actors[index] ?? ""
            var lanes = busyUntil[actor] ?? []
            let span = spans[index]
            let lane = lanes.firstIndex { $0 <= span.startTime } ?? lanes.count
            if lane == lanes.count {
                lanes.append(span.endTime)
            } else {
                lanes[lane] = span.endTime
            }
            spans[index].lane = lane
            busyUntil[actor] = lanes
        }
        for (actor, lanes) in busyUntil.sorted(by: { $0.key < $1.key }) {
            laneCounts[actor] = lanes.count
        }
    }

    /// How many request threads an actor needs (0 for one that sent none).
    func lanes(of actor: String) -> Int { laneCounts[actor] ?? 0 }
}
