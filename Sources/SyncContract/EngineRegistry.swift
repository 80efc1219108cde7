/// The engines a simulator can run, by name, in the order they were registered.
public struct EngineRegistry: Sendable {
    public private(set) var profiles: [EngineProfile]

    public init(_ profiles: [EngineProfile] = []) {
        self.profiles = []
        for profile in profiles { register(profile) }
    }

    /// Adds an engine; its name must be new.
    public mutating func register(_ profile: EngineProfile) {
        precondition(self.profile(named: profile.name) == nil,
                     "engine '\(profile.name)' is registered twice")
        profiles.append(profile)
    }

    public func profile(named name: String) -> EngineProfile? {
        profiles.first { $0.name == name }
    }

    public var names: [String] { profiles.map(\.name) }
}

/// Two registries are the same when they list the same engines (by name) in the same order:
/// a profile is known by its name.
extension EngineRegistry: Hashable {
    public static func == (lhs: EngineRegistry, rhs: EngineRegistry) -> Bool {
        lhs.names == rhs.names
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(names)
    }
}
