/// Durations against the run's time budget (`budget time`, `--max-time`, default 30 days):
/// a duration the run cannot reach within its budget is an input error, placed where it is
/// written, rather than a budget failure later.
extension Validator {
    /// The time budget the run will have: the command line's, the file's or the default.
    var timeBudget: TimeSpan { options.maxTime ?? scenario.budget.effectiveTime }

    /// How to raise the time budget, for messages.
    var budgetHint: String {
        if let maxTime = options.maxTime {
            return "it is set by '--max-time \(maxTime.unitText)' on the command line; raise that"
        }
        if let time = scenario.budget.time {
            return "raise 'budget time \(time.value.unitText)' (line \(time.location.line)) "
                + "or run with '--max-time D'"
        }
        return "raise it with 'budget time D' in the file or '--max-time D' on the command line"
    }

    mutating func checkDurations() {
        let budget = timeBudget
        for duration in scenario.durations where duration.value > budget {
            report(.beyondTimeBudget(duration.value.unitText, budget: budget, hint: budgetHint),
                at: duration.location)
        }
    }
}
