import Kernel
import TestSupport
import Testing

@Suite("Trace")
struct TraceTests {
    @Test("an event's JSON line has the fixed key order and no spaces")
    func documentedExample() {
        let event = TraceEvent(
            time: .microseconds(1_500_000), actor: "phone", kind: "upload.sent",
            details: [TraceField("records", 2)], rules: ["SYNC-2"]
        )
        let expected = #"{"time":1500000,"actor":"phone","kind":"upload.sent","#
            + #""details":{"records":2},"rules":["SYNC-2"]}"#
        #expect(Trace.jsonLine(event) == expected)
        #expect(event.jsonLine == expected)
        #expect(Trace().jsonLine(event) == expected)
    }

    @Test("empty details and rules are written as {} and []")
    func emptyCollections() {
        let event = TraceEvent(time: .zero, actor: "cloud", kind: "start")
        let expected = #"{"time":0,"actor":"cloud","kind":"start","details":{},"rules":[]}"#
        #expect(event.jsonLine == expected)
    }

    @Test("values nest, keep field order and cover every case")
    func nestedValues() {
        let details: [TraceField] = [
            TraceField("zeta", .null),
            TraceField("alpha", [1, -2, true, "x"]),
            TraceField("object", ["b": false, "a": .list([]), "c": .object([])]),
            TraceField("big", .int(Int64.min)),
            TraceField("count", .integer(UInt8(7))),
            TraceField("at", .time(.milliseconds(3))),
        ]
        let event = TraceEvent(time: .seconds(1), actor: "a", kind: "k", details: details)
        #expect(event.jsonLine == #"{"time":1000000,"actor":"a","kind":"k","details":{"#
            + #""zeta":null,"alpha":[1,-2,true,"x"],"object":{"b":false,"a":[],"c":{}},"#
            + #""big":-9223372036854775808,"count":7,"at":3000},"rules":[]}"#)
    }

    @Test("strings are escaped per RFC 8259 and non-ASCII stays UTF-8")
    func escaping() {
        let text = "q\"b\\n\nt\tr\rb\u{8}f\u{C}z\u{0}e\u{1B}u\u{1F}d\u{7F}é☃🙂/"
        let event = TraceEvent(time: .zero, actor: text, kind: "k")
        let expected = #"{"time":0,"actor":"q\"b\\n\nt\tr\rb\bf\fz\u0000e\u001bu\u001fd"#
            + "\u{7F}é☃🙂/\""
            + #","kind":"k","details":{},"rules":[]}"#
        #expect(event.jsonLine == expected)
    }

    @Test("jsonLines() writes one line per event, each ending with a newline")
    func jsonLines() {
        var trace = Trace()
        #expect(trace.jsonLines() == "")
        trace.append(TraceEvent(time: .zero, actor: "a", kind: "one"))
        trace.append(TraceEvent(time: .microseconds(5), actor: "b", kind: "two", rules: ["X", "Y"]))
        #expect(trace.jsonLines() == """
            {"time":0,"actor":"a","kind":"one","details":{},"rules":[]}
            {"time":5,"actor":"b","kind":"two","details":{},"rules":["X","Y"]}

            """)
        #expect(trace.count == 2 && trace.isRecording)
    }

    @Test("a trace that is not recording only counts")
    func countingOnly() {
        var trace = Trace(recording: false)
        for index in 0..<3 {
            trace.append(TraceEvent(time: .microseconds(Int64(index)), actor: "a", kind: "k"))
        }
        #expect(trace.count == 3)
        #expect(trace.events.isEmpty && trace.jsonLines() == "")
    }
}

@Suite("Trace counting")
struct TraceCountingTests {
    @Test("a trace that does not record counts unkept events with the appended ones")
    func countsUnkeptEvents() {
        var trace = Trace(recording: false)
        trace.append(TraceEvent(time: .zero, actor: "phone", kind: "a"))
        trace.countUnkept()
        trace.countUnkept()
        #expect(trace.count == 3)
        #expect(trace.events.isEmpty)
    }

    @Test("a recording trace counts what it keeps")
    func recordingCountsKept() {
        var trace = Trace(recording: true)
        trace.append(TraceEvent(time: .zero, actor: "phone", kind: "a"))
        #expect(trace.count == 1)
        #expect(trace.events.map(\.kind) == ["a"])
    }

    @Test("a line decodes back to its event, every value case and escape included")
    func decodingRoundTrips() {
        let events = [
            TraceEvent(
                time: .microseconds(1_500_000), actor: "phone", kind: "upload.sent",
                details: [TraceField("records", 2)], rules: ["SYNC-2", "LIM-1"]),
            TraceEvent(time: .zero, actor: "cloud", kind: "start"),
            TraceEvent(time: .seconds(1), actor: "a", kind: "k", details: [
                TraceField("zeta", .null), TraceField("alpha", [1, -2, true, "x"]),
                TraceField("object", ["b": false, "a": .list([]), "c": .object([])]),
                TraceField("big", .int(Int64.min)),
            ]),
            TraceEvent(
                time: .zero, actor: "q\"b\\n\nt\tr\rb\u{8}f\u{C}z\u{0}e\u{1B}é☃🙂/", kind: "k"),
        ]
        for event in events {
            #expect(TraceEvent.decoded(event.jsonLine) == event)
        }
        var trace = Trace(recording: true)
        for event in events { trace.append(event) }
        #expect(TraceEvent.decodedLines(trace.jsonLines()) == events)
        #expect(TraceEvent.decoded("{\"time\":1}") == nil)
        #expect(events[0][detail: "records"] == .int(2))
        #expect(events[0].string("records") == nil)
    }
}
