/// Arithmetic on simulated time that stops at the ends of `Int64` instead of trapping.
///
/// Durations come from scenarios and the Swift API (`wait 2562047788h`, `cloud: outage for
/// …`, a retry-after, a latency); any of them may be so large that adding it to the current
/// time overflows. Plain `+` traps there, in a release build too. A saturated time is simply
/// "later than any budget": the kernel then reports the time budget as exceeded, which is the
/// clear failure such a run deserves. Every place that adds a scenario-supplied duration to a
/// time uses these operations.
extension SimTime {
    /// `self + span`, clamped to `SimTime.max` (and to `Int64.min` going down).
    @inlinable
    public func adding(_ span: SimTime) -> SimTime {
        let (sum, overflow) = microseconds.addingReportingOverflow(span.microseconds)
        guard overflow else { return SimTime(microseconds: sum) }
        return span.microseconds > 0 ? .max : SimTime(microseconds: .min)
    }

    /// `self - span`, clamped to the ends of `Int64`.
    @inlinable
    public func subtracting(_ span: SimTime) -> SimTime {
        let (difference, overflow) = microseconds.subtractingReportingOverflow(span.microseconds)
        guard overflow else { return SimTime(microseconds: difference) }
        return span.microseconds < 0 ? .max : SimTime(microseconds: .min)
    }

    /// `self × factor`, clamped to the ends of `Int64`.
    @inlinable
    public func multiplied(by factor: Int64) -> SimTime {
        let (product, overflow) = microseconds.multipliedReportingOverflow(by: factor)
        guard overflow else { return SimTime(microseconds: product) }
        return (microseconds < 0) == (factor < 0) ? .max : SimTime(microseconds: .min)
    }
}
