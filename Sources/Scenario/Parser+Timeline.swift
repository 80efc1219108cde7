/// `wait`, `settle`, `at` and `when ... reaches ...` on the timeline.
extension Parser {
    mutating func appendTimeline(_ kind: TimelineStatementKind, at location: SourceLocation) {
        scenario.timeline.append(TimelineStatement(kind, location: location))
    }

    /// `wait D` or `wait until DEVICE idle`.
    mutating func parseWait(_ keyword: Token) -> Bool {
        if current.isKeyword("until") {
            advance()
            guard let device = name("a device name"), expectKeyword("idle") else { return false }
            appendTimeline(.waitUntilIdle(device: device), at: keyword.location)
            return true
        }
        guard let duration = parseDuration() else { return false }
        appendTimeline(.wait(duration), at: keyword.location)
        return true
    }

    mutating func parseSettle(_ keyword: Token) -> Bool {
        appendTimeline(.settle, at: keyword.location)
        return true
    }

    /// `at T`, an absolute time since the start of the run.
    mutating func parseAt(_ keyword: Token) -> Bool {
        guard let time = parseDuration() else { return false }
        appendTimeline(.at(time), at: keyword.location)
        return true
    }

    /// `when DEVICE reaches PROBE [N]: DEVICE: ACTION` or `...: cloud: ACTION`.
    mutating func parseTrigger(_ keyword: Token) -> Bool {
        guard let device = name("a device name"), expectKeyword("reaches") else { return false }
        let probeToken = current
        guard probeToken.kind == .identifier else {
            report(.expected("a probe point such as 'download.done'", found: probeToken),
                at: probeToken.location)
            return false
        }
        advance()
        let probe = Located(probeToken.text, at: probeToken.location)
        var occurrence = Located(1, at: probeToken.location)
        if current.kind == .number {
            let location = current.location
            guard let count = parseCount("an occurrence number", minimum: 1) else { return false }
            occurrence = Located(count, at: location)
        }
        guard expect(.colon, "':'") != nil else { return false }
        guard current.kind == .identifier, peek().kind == .colon else {
            report(.expected("'DEVICE: ACTION' or 'cloud: ACTION'", found: current),
                at: current.location)
            return false
        }
        let action: TriggerAction
        if current.isKeyword("cloud") {
            guard let statement = parseCloudActionStatement() else { return false }
            action = .cloud(statement)
        } else {
            guard let statement = parseDeviceActionStatement() else { return false }
            action = .device(statement)
        }
        let trigger = Trigger(
            device: device, probe: probe, occurrence: occurrence, action: action,
            location: keyword.location)
        appendTimeline(.trigger(trigger), at: keyword.location)
        return true
    }
}
