/// An entity block as written, before property types are known to be attributes or
/// relationships (an entity may be declared after the entities that refer to it).
struct RawEntity {
    var name: Located<String>
    var properties: [RawProperty] = []
    var sync: SyncSpecification = .all
    var syncLocation: SourceLocation?
    var identity: [Located<String>] = []
    var identityLocation: SourceLocation?
    var sharableLocation: SourceLocation?
    var location: SourceLocation
}

/// `name: Type[?] modifiers...` as written.
struct RawProperty {
    var name: Located<String>
    /// The type's name, without brackets or question mark.
    var typeName: Located<String>
    /// `[X]`.
    var isBracketed = false
    /// `X?` or `[X]?`.
    var isOptional = false
    var defaultValue: Value?
    var assetLocation: SourceLocation?
    var parentLocation: SourceLocation?
    var inverse: Located<String>?
    var deleteRule: Located<DeleteRule>?
    var location: SourceLocation
}
