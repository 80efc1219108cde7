import LocalStore

/// What one process of an app synchronizes: an extension with fewer models or keys (EXT-2),
/// or a version of the app that synchronizes others or declares identities (EXT-3, ID-7).
public struct SyncView: Hashable, Sendable {
    /// Entity → the keys synchronized (nil: every key the schema synchronizes). Nil for the
    /// whole view: everything the schema synchronizes.
    public var entities: [String: [String]?]?
    /// Entity → identity attributes this version declares.
    public var identities: [String: [String]]

    public init(entities: [String: [String]?]? = nil, identities: [String: [String]] = [:]) {
        self.entities = entities
        self.identities = identities
    }

    /// The schema as this process sees it: entities it does not list are not synchronized,
    /// keys it does not list are left out, identities it declares are added.
    public func applied(to schema: Schema) -> Schema {
        var result = schema
        for index in result.entities.indices {
            var entity = result.entities[index]
            if let declared = identities[entity.name] { entity.identity = declared }
            if let entities {
                if let selected = entities[entity.name] {
                    if let keys = selected {
                        let synchronized = entity.attributes.map(\.name)
                            + entity.relationships.map(\.name)
                        entity.sync = .only(synchronized.filter {
                            keys.contains($0) && entity.sync.includes($0)
                        })
                    }
                } else {
                    entity.sync = .none
                }
            }
            result.entities[index] = entity
        }
        return result
    }
}
