/// The engines a simulator can run, by name, in the order they were registered.
///
/// An engine registered by name gives its profile when first asked for it: a run of one
/// engine never builds the others' catalogues.
public struct EngineRegistry: Sendable {
    private struct Entry: Sendable {
        let name: String
        let profile: @Sendable () -> EngineProfile
    }

    private var entries: [Entry] = []

    public init(_ profiles: [EngineProfile] = []) {
        for profile in profiles { register(profile) }
    }

    /// Adds an engine; its name must be new.
    public mutating func register(_ profile: EngineProfile) {
        register(named: profile.name) { profile }
    }

    /// Adds an engine by name, its profile asked of `profile` each time it is wanted: give a
    /// stored one (a `static let`), which is then built at its first use. Its name must be new
    /// and be the profile's.
    public mutating func register(
        named name: String, _ profile: @escaping @Sendable () -> EngineProfile
    ) {
        precondition(!entries.contains { $0.name == name },
                     "engine '\(name)' is registered twice")
        entries.append(Entry(name: name, profile: profile))
    }

    /// Every engine's profile, in registration order.
    public var profiles: [EngineProfile] { entries.map(Self.profile) }

    public func profile(named name: String) -> EngineProfile? {
        entries.first { $0.name == name }.map(Self.profile)
    }

    public var names: [String] { entries.map(\.name) }

    private static func profile(of entry: Entry) -> EngineProfile {
        let profile = entry.profile()
        precondition(profile.name == entry.name,
                     "engine '\(entry.name)' gave the profile of '\(profile.name)'")
        return profile
    }
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
