/// A timer an engine can have scheduled, named by the engine; at most one of each name at a
/// time (setting it again replaces it).
///
/// The contract knows no timer: each engine declares its own as static members
/// (`extension EngineTimer { static let debounce = EngineTimer("debounce") }`) and matches
/// them in a `switch` like enum cases. The name appears in the trace (`timer.fired`).
public struct EngineTimer: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: String

    public init(_ rawValue: String) {
        precondition(!rawValue.isEmpty, "a timer needs a name")
        self.rawValue = rawValue
    }

    public static func < (lhs: EngineTimer, rhs: EngineTimer) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { rawValue }
}
