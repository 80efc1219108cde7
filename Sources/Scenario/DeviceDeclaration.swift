/// `account NAME`: an iCloud account devices can sign into.
public struct AccountDeclaration: Hashable, Sendable {
    public var name: Located<String>
    public var location: SourceLocation

    public init(name: Located<String>, location: SourceLocation) {
        self.name = name
        self.location = location
    }
}

/// `device NAME [on ACCOUNT] [latency D]`: one app process, launched at time 0.
public struct DeviceDeclaration: Hashable, Sendable {
    public var name: Located<String>
    /// The account signed in at launch; nil means the device starts signed out.
    public var account: Located<String>?
    /// This device's one-way request latency; nil means the cloud's latency applies.
    public var latency: Located<DurationSpecification>?
    /// `extension of APP`: an app extension sharing that app's store, sync data and account
    /// (EXT-1). A SyncLab addition.
    public var extensionOf: Located<String>?
    /// `syncs ENTITY(key, …) …`: what this process synchronizes, fewer models or keys than
    /// the schema (EXT-2); nil synchronizes what the schema says. A SyncLab addition.
    public var syncs: [SyncSelection]?
    public var location: SourceLocation

    public init(
        name: Located<String>,
        account: Located<String>? = nil,
        latency: Located<DurationSpecification>? = nil,
        location: SourceLocation
    ) {
        self.name = name
        self.account = account
        self.latency = latency
        self.location = location
    }
}

/// One item of a `syncs` list: an entity, with all its synchronized keys or only some.
public struct SyncSelection: Hashable, Sendable {
    public var entity: Located<String>
    /// Nil: every key the schema synchronizes; else only these.
    public var keys: [Located<String>]?

    public init(entity: Located<String>, keys: [Located<String>]? = nil) {
        self.entity = entity
        self.keys = keys
    }
}

/// A new version of the app (`upgrade …`): what it synchronizes and which identities it
/// declares (EXT-3, ID-7). A SyncLab addition.
public struct AppVersion: Hashable, Sendable {
    /// Nil (`syncs all`): what the schema says.
    public var syncs: [SyncSelection]?
    /// `identity ENTITY(attribute, …)`: identities this version adds.
    public var identities: [SyncSelection]

    public init(syncs: [SyncSelection]? = nil, identities: [SyncSelection] = []) {
        self.syncs = syncs
        self.identities = identities
    }
}
