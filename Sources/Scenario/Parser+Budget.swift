/// `budget time D` and `budget events N` (a SyncLab addition, docs/FORMAT.md §3).
extension Parser {
    static let budgetKinds = ["time", "events"]

    mutating func parseBudget(_ keyword: Token) -> Bool {
        let word = current
        guard word.kind == .identifier, Self.budgetKinds.contains(word.text) else {
            let suggestions = word.kind == .identifier
                ? Suggestions.closest(to: word.text, among: Self.budgetKinds) : []
            report(.expected("'time' or 'events'", found: word, suggestions: suggestions),
                at: word.location)
            return false
        }
        advance()
        let statement = "budget \(word.text)"
        if word.text == "time" {
            let location = current.location
            guard let time = parseDuration(counts: false) else { return false }
            guard time.value > .zero else {
                report(.budgetTooSmall(statement), at: location)
                return false
            }
            if let first = scenario.budget.time {
                reportDuplicate(statement, at: keyword.location, firstAt: first.location)
            } else {
                scenario.budget.time = time
            }
        } else {
            let location = current.location
            guard let count = parseCount("a number of events", minimum: 1) else { return false }
            if let first = scenario.budget.events {
                reportDuplicate(statement, at: keyword.location, firstAt: first.location)
            } else {
                scenario.budget.events = Located(count, at: location)
            }
        }
        return true
    }

    private mutating func reportDuplicate(
        _ statement: String, at location: SourceLocation, firstAt first: SourceLocation
    ) {
        let note = DiagnosticNote(location: first, message: "first '\(statement)' is here")
        report(.duplicateStatement(statement), at: location, notes: [note])
    }
}
