/// `chaos workload …`, `chaos fault …`, `chaos mix …` and `chaos heal within …`.
extension Parser {
    static let chaosStatements = ["workload", "fault", "mix", "heal"]

    /// `chaos WORD …`: a setup statement that makes the file describe a family of runs.
    mutating func parseChaos(_ keyword: Token) -> Bool {
        scenario.chaos.lines.append(keyword.location.line)
        if scenario.chaos.location == nil { scenario.chaos.location = keyword.location }
        let word = current
        guard word.kind == .identifier, Self.chaosStatements.contains(word.text) else {
            let suggestions = Suggestions.closest(to: word.text, among: Self.chaosStatements)
            report(.unknownChaosStatement(word, suggestions: suggestions), at: word.location)
            return false
        }
        advance()
        switch word.text {
        case "workload": return parseChaosWorkload(keyword)
        case "fault": return parseChaosFault(keyword)
        case "mix": return parseChaosMix(keyword)
        default: return parseChaosHeal(keyword)
        }
    }

    /// `N operations [on E, …] [by D, …] [every DURATION]`, clauses in any order, once each.
    private mutating func parseChaosWorkload(_ keyword: Token) -> Bool {
        let countLocation = current.location
        guard let count = parseCount("a number of operations", minimum: 1) else { return false }
        guard current.isKeyword("operations") || current.isKeyword("operation") else {
            report(.expected("'operations'", found: current), at: current.location)
            return false
        }
        advance()
        var workload = ChaosWorkload(
            operations: Located(count, at: countLocation), location: keyword.location)
        var seen: [String] = []
        let clauses = ["on", "by", "every"]
        while !current.endsLine {
            let clause = current
            guard clause.kind == .identifier, clauses.contains(clause.text) else {
                let suggestions = Suggestions.closest(to: clause.text, among: clauses)
                report(.unexpectedToken(clause, suggestions: suggestions), at: clause.location)
                return false
            }
            advance()
            if seen.contains(clause.text) {
                report(.duplicateClause(clause.text), at: clause.location)
            }
            seen.append(clause.text)
            switch clause.text {
            case "on":
                guard let names = parseCommaSeparatedNames("an entity name") else { return false }
                workload.entities = names
            case "by":
                guard let names = parseCommaSeparatedNames("a device name") else { return false }
                workload.devices = names
            default:
                guard let interval = parseDurationSpecification() else { return false }
                workload.interval = interval
            }
        }
        if let first = scenario.chaos.workload {
            let note = DiagnosticNote(location: first.location, message: "first one is here")
            report(.duplicateStatement("chaos workload"), at: keyword.location, notes: [note])
        } else {
            scenario.chaos.workload = workload
        }
        return true
    }

    /// `NAME, NAME, …`: at least one name.
    private mutating func parseCommaSeparatedNames(_ what: String) -> [Located<String>]? {
        guard let first = name(what) else { return nil }
        var names = [first]
        // Each pass consumes a comma and a name, so this ends within the line.
        while current.kind == .comma {
            advance()
            guard let next = name(what) else { return nil }
            names.append(next)
        }
        return names
    }

    /// `KIND P% [for DURATION]`.
    private mutating func parseChaosFault(_ keyword: Token) -> Bool {
        let word = current
        guard word.kind == .identifier, let kind = ChaosFaultKind(rawValue: word.text) else {
            let names = ChaosFaultKind.allCases.map(\.rawValue)
            let suggestions = Suggestions.closest(to: word.text, among: names)
            report(.unknownFault(word, suggestions: suggestions), at: word.location)
            return false
        }
        advance()
        guard let probability = parsePercentage() else { return false }
        var fault = ChaosFault(
            kind: Located(kind, at: word.location), probability: probability,
            location: keyword.location)
        if current.isKeyword("for") {
            advance()
            let location = current.location
            guard let duration = parseDurationSpecification() else { return false }
            fault.duration = Located(duration, at: location)
        }
        scenario.chaos.faults.append(fault)
        return true
    }

    /// `KIND P% KIND P% …`: at least one share.
    private mutating func parseChaosMix(_ keyword: Token) -> Bool {
        var mix = ChaosMix(shares: [], location: keyword.location)
        let names = ChaosOperationKind.allCases.map(\.rawValue)
        // Each pass consumes a word and a percentage, so this ends within the line.
        repeat {
            let word = current
            guard word.kind == .identifier, let kind = ChaosOperationKind(rawValue: word.text)
            else {
                let suggestions = Suggestions.closest(to: word.text, among: names)
                report(.unknownOperation(word, suggestions: suggestions), at: word.location)
                return false
            }
            advance()
            guard let share = parsePercentage() else { return false }
            if mix.shares.contains(where: { $0.kind == kind }) {
                report(.duplicateChaosEntry(word.text, list: "in 'chaos mix'"),
                    at: word.location)
            } else {
                mix.shares.append(ChaosShare(kind, share, location: word.location))
            }
        } while !current.endsLine
        if let first = scenario.chaos.mix?.location {
            let note = DiagnosticNote(location: first, message: "first one is here")
            report(.duplicateStatement("chaos mix"), at: keyword.location, notes: [note])
        } else {
            scenario.chaos.mix = mix
        }
        return true
    }

    /// `within DURATION`.
    private mutating func parseChaosHeal(_ keyword: Token) -> Bool {
        guard expectKeyword("within"), let budget = parseDuration() else { return false }
        if let first = scenario.chaos.heal {
            let note = DiagnosticNote(location: first.location, message: "first one is here")
            report(.duplicateStatement("chaos heal"), at: keyword.location, notes: [note])
        } else {
            scenario.chaos.heal = budget
        }
        return true
    }
}
