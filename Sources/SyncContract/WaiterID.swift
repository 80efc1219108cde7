/// A script action that waits for the engine (`sync`, `launch`, `start`, …); the engine
/// reports it finished with `EngineEffect.completed`.
public struct WaiterID: Hashable, Sendable {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }
}
