/// One line of the timeline, run at the script's current time in file order.
public struct TimelineStatement: Hashable, Sendable {
    public var kind: TimelineStatementKind
    /// Where the statement starts; its line is what runtime failures name.
    public var location: SourceLocation

    public init(_ kind: TimelineStatementKind, location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    public var line: Int { location.line }
}

/// What a timeline statement does.
///
/// `indirect`: each payload lives in its own box, so a statement is 16 bytes in the
/// timeline's array (it was 248, the size of the largest payload, a trigger), and a run that
/// releases each statement once it has run (`ScenarioRunner.run(releasing:)`) frees all but
/// those 16 bytes.
public indirect enum TimelineStatementKind: Hashable, Sendable {
    /// `wait 5s`: run the simulation for that long.
    case wait(Located<TimeSpan>)
    /// `wait until phone idle`: run until that device has nothing in flight or due.
    case waitUntilIdle(device: Located<String>)
    /// `settle`: run until nothing anywhere is in flight or due (timers ≥ 1 h away excepted).
    case settle
    /// `at 12s`: run until that absolute time.
    case at(Located<TimeSpan>)
    /// `phone: ACTION`.
    case deviceAction(DeviceActionStatement)
    /// `cloud: ACTION`.
    case cloudAction(CloudActionStatement)
    /// `when phone reaches PROBE [N]: ACTION`.
    case trigger(Trigger)
    /// `expect ...`.
    case expectation(Expectation)
}

/// `when DEVICE reaches PROBE [N]: ACTION`: runs once, at the Nth occurrence after the line.
public struct Trigger: Hashable, Sendable {
    public var device: Located<String>
    /// A dotted probe point name, e.g. `download.page.saved`.
    public var probe: Located<String>
    /// Which occurrence fires it, counting from 1 (the default when none is written).
    public var occurrence: Located<Int>
    public var action: TriggerAction
    public var location: SourceLocation

    public init(
        device: Located<String>,
        probe: Located<String>,
        occurrence: Located<Int>,
        action: TriggerAction,
        location: SourceLocation
    ) {
        self.device = device
        self.probe = probe
        self.occurrence = occurrence
        self.action = action
        self.location = location
    }
}

/// The action a trigger runs at its probe point.
public enum TriggerAction: Hashable, Sendable {
    case device(DeviceActionStatement)
    case cloud(CloudActionStatement)
}
