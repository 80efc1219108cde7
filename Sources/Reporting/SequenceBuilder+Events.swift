import Kernel

/// How each kind of trace event becomes rows: script lines, network traffic, decisions.
extension SequenceBuilder {
    mutating func script(_ event: TraceEvent) {
        let time = event.time.microseconds
        let line = TraceDetailText.integer("line", in: event.details)
        switch event.kind {
        case "trigger.fired":
            let device = TraceDetailText.string("device", in: event.details) ?? "cloud"
            let probe = TraceDetailText.string("probe", in: event.details) ?? "?"
            let text = statement(line: line, fallback: "when \(device) reaches \(probe)")
            let over = participants.contains(device) ? [device] : everyone
            openGroup(.trigger, note: single(.trigger, over: over, time: time, text),
                      targets: [device])
        case "action":
            let device = TraceDetailText.string("device", in: event.details) ?? ""
            let action = TraceDetailText.string("action", in: event.details) ?? "?"
            if group?.kind == .trigger { widenTrigger(to: device); return }
            let over = participants.contains(device) ? [device] : everyone
            let text = statement(line: line, fallback: "\(device): \(action)")
            if Self.faultActions.contains(action) {
                openGroup(.fault, note: single(.fault, over: over, time: time, text),
                          targets: [device])
            } else {
                note(.action, over: over, time: time, text)
            }
        case "cloud.action":
            if group?.kind == .trigger { widenTrigger(to: "cloud"); return }
            let action = TraceDetailText.string("action", in: event.details) ?? "?"
            let text = statement(line: line, fallback: "cloud: \(action)")
            openGroup(.fault, note: single(.fault, over: ["cloud"], time: time, text),
                      targets: ["cloud"])
        case "expectation":
            guard case .bool(false)? = event.details.first(where: { $0.key == "passed" })?.value
            else { return }
            let found = TraceDetailText.string("found", in: event.details) ?? ""
            let wanted = statement(line: line, fallback: "expectation")
            let text = found.isEmpty ? wanted : "\(wanted) — found: \(self.text.shortened(found))"
            note(.failure, over: everyone, time: time, text)
        case "run.failed":
            let message = TraceDetailText.string("message", in: event.details) ?? ""
            let place = line.map { " at line \($0)" } ?? ""
            note(.failure, over: everyone, time: time, "runtime failure\(place): \(message)")
        default:
            break
        }
    }

    mutating func cloud(_ event: TraceEvent) {
        let time = event.time.microseconds
        switch event.kind {
        case "request.handled":
            let device = TraceDetailText.string("device", in: event.details) ?? "?"
            let request = TraceDetailText.string("request", in: event.details) ?? "?"
            let kind = TraceDetailText.string("kind", in: event.details) ?? "request"
            let key = Self.key(device, request)
            let sent = requests.removeValue(forKey: key)
            handled[key] = (time, kind)
            append(.message(SequenceMessage(
                from: device, to: "cloud", style: .request, sentTime: sent?.time, time: time,
                text: sent?.text ?? "\(request) \(kind)")))
        case "push.sent":
            if let device = TraceDetailText.string("device", in: event.details) {
                pushes[device, default: []].append(time)
            }
        case "push.dropped", "push.coalesced", "push.missed":
            note(.info, over: ["cloud"], time: time, describe(event))
        default:
            if event.kind.hasPrefix("zone.") && event.rules.isEmpty {
                note(.info, over: ["cloud"], time: time, describe(event))
            }
        }
        if !event.rules.isEmpty { addRuleLine(event) }
    }

    mutating func device(_ event: TraceEvent) {
        let time = event.time.microseconds
        let name = event.actor
        let request = TraceDetailText.string("request", in: event.details) ?? "?"
        switch event.kind {
        case "request.sent":
            let kind = TraceDetailText.string("kind", in: event.details) ?? "request"
            let extra = text.fields(
                event.details, hiding: ["request", "kind", "arrives"], terse: true)
            let label = ([request, kind] + (extra.isEmpty ? [] : [extra])).joined(separator: " ")
            requests[Self.key(name, request)] = (time, kind, label)
        case "response.received":
            guard let answered = handled.removeValue(forKey: Self.key(name, request)) else { break }
            let extra = text.fields(event.details, hiding: ["request"], terse: true)
            append(.message(SequenceMessage(
                from: "cloud", to: name, style: .response, sentTime: answered.time, time: time,
                text: "\(request) \(answered.kind) " + (extra.isEmpty ? "ok" : extra))))
        case "response.lost":
            let answered = handled.removeValue(forKey: Self.key(name, request))
            append(.message(SequenceMessage(
                from: "cloud", to: name, style: .lost, sentTime: answered?.time, time: time,
                text: "\(request) answer lost")))
        case "request.failed":
            requests[Self.key(name, request)] = nil
            note(.info, over: [name], time: time, "✗ " + describe(event))
        case "push.received", "push.missed", "push.lost":
            pushArrived(event)
        default:
            if Self.infoKinds.contains(event.kind) && event.rules.isEmpty {
                note(.info, over: [name], time: time, describe(event))
            }
        }
        if !event.rules.isEmpty { addRuleLine(event) }
    }

    private mutating func pushArrived(_ event: TraceEvent) {
        let name = event.actor
        var sent: Int64?
        if var queue = pushes[name], !queue.isEmpty {
            sent = queue.removeFirst()
            pushes[name] = queue
        }
        let text: String
        switch event.kind {
        case "push.received": text = "push"
        case "push.missed": text = "push missed (offline)"
        default:
            let reason = TraceDetailText.string("reason", in: event.details)
            text = "push lost" + (reason.map { " (\($0))" } ?? "")
        }
        let style: MessageStyle = event.kind == "push.received" ? .push : .lost
        append(.message(SequenceMessage(
            from: "cloud", to: name, style: style, sentTime: sent, time: event.time.microseconds,
            text: text)))
    }

    /// `kind key=value …`, the generic one-line form of an event.
    func describe(_ event: TraceEvent) -> String {
        let fields = text.fields(event.details)
        return fields.isEmpty ? event.kind : "\(event.kind) \(fields)"
    }

    static func key(_ device: String, _ request: String) -> String {
        device + "\u{1F}" + request
    }

    // MARK: Rule notes

    /// Adds a decision to the note of its participant and moment, starting a new note when
    /// either changed.
    mutating func addRuleLine(_ event: TraceEvent) {
        let line = NoteLine(rules: event.rules, text: describe(event))
        let time = event.time.microseconds
        if var pending = ruleNote, pending.actor == event.actor, pending.time == time {
            if let index = pending.lines.firstIndex(where: { $0.line == line }) {
                pending.lines[index].count += 1
            } else {
                pending.lines.append((line, 1))
            }
            ruleNote = pending
            return
        }
        flushRuleNote()
        ruleNote = PendingRuleNote(actor: event.actor, time: time, lines: [(line, 1)])
    }

    mutating func flushRuleNote() {
        guard let pending = ruleNote else { return }
        ruleNote = nil
        var lines = pending.lines.map { entry in
            entry.count == 1 ? entry.line
                : NoteLine(rules: entry.line.rules, text: entry.line.text + " ×\(entry.count)")
        }
        if lines.count > limits.maxNoteLines {
            let kept = limits.maxNoteLines - 1
            let rest = pending.lines[kept...].reduce(0) { $0 + $1.count }
            lines = Array(lines.prefix(kept)) + [NoteLine(text: "+\(rest) more decisions")]
        }
        let over = participants.contains(pending.actor) ? [pending.actor] : everyone
        append(.note(SequenceNote(over: over, kind: .rule, time: pending.time, lines: lines)))
    }
}
