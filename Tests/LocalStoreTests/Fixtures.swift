import LocalStore

/// Schemas and shorthands shared by the LocalStore tests.
enum Fixtures {
    /// Notes in folders (the to-many side derived from the note's `folder`), tags listed on
    /// notes without an inverse, attachments below notes, and bookmarks pointing at notes
    /// without any inverse.
    static func notes(
        folderNotes: DeleteRule = .cascade,
        noteFolder: DeleteRule = .nullify,
        noteAttachments: DeleteRule = .cascade
    ) -> Schema {
        Schema(entities: [
            EntityDescription(
                name: "Note",
                attributes: [
                    AttributeDescription(name: "title", type: .string, defaultValue: .string("")),
                    AttributeDescription(name: "body", type: .string, isOptional: true),
                    AttributeDescription(name: "pinned", type: .bool, defaultValue: .bool(false)),
                    AttributeDescription(
                        name: "rank", type: .int, isOptional: true, defaultValue: .int(5)
                    ),
                ],
                relationships: [
                    RelationshipDescription(
                        name: "folder", destination: "Folder", isToMany: false,
                        deleteRule: noteFolder, isParent: true
                    ),
                    RelationshipDescription(name: "tags", destination: "Tag", isToMany: true),
                    RelationshipDescription(
                        name: "attachments", destination: "Attachment", isToMany: true,
                        inverse: "note", deleteRule: noteAttachments
                    ),
                ]
            ),
            EntityDescription(
                name: "Folder",
                attributes: [
                    AttributeDescription(name: "name", type: .string, defaultValue: .string(""))
                ],
                relationships: [
                    RelationshipDescription(
                        name: "notes", destination: "Note", isToMany: true, inverse: "folder",
                        deleteRule: folderNotes
                    )
                ]
            ),
            EntityDescription(
                name: "Tag",
                attributes: [AttributeDescription(name: "label", type: .string)]
            ),
            EntityDescription(
                name: "Attachment",
                attributes: [
                    AttributeDescription(name: "size", type: .int, defaultValue: .int(0))
                ],
                relationships: [
                    RelationshipDescription(name: "note", destination: "Note", isToMany: false)
                ]
            ),
            EntityDescription(
                name: "Bookmark",
                relationships: [
                    RelationshipDescription(name: "note", destination: "Note", isToMany: false)
                ]
            ),
        ])
    }

    /// People with one passport each (one-to-one), a spouse (one-to-one with itself), and
    /// clubs they belong to (many-to-many).
    static func people(passportRule: DeleteRule = .nullify) -> Schema {
        Schema(entities: [
            EntityDescription(
                name: "Person",
                attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [
                    RelationshipDescription(
                        name: "passport", destination: "Passport", isToMany: false,
                        inverse: "owner", deleteRule: passportRule
                    ),
                    RelationshipDescription(
                        name: "spouse", destination: "Person", isToMany: false, inverse: "spouse"
                    ),
                    RelationshipDescription(
                        name: "clubs", destination: "Club", isToMany: true, inverse: "members"
                    ),
                ]
            ),
            EntityDescription(
                name: "Passport",
                attributes: [
                    AttributeDescription(name: "number", type: .string, defaultValue: .string(""))
                ],
                relationships: [
                    RelationshipDescription(name: "owner", destination: "Person", isToMany: false)
                ]
            ),
            EntityDescription(
                name: "Club",
                relationships: [
                    RelationshipDescription(
                        name: "members", destination: "Person", isToMany: true, inverse: "clubs"
                    )
                ]
            ),
        ])
    }

    /// One attribute of every type, all optional.
    static let everyType = Schema(entities: [
        EntityDescription(
            name: "Sample",
            attributes: AttributeType.allCases.map {
                AttributeDescription(name: $0.rawValue.lowercased(), type: $0, isOptional: true)
            }
        )
    ])
}

/// Shorthands for property values.
func text(_ value: String) -> PropertyValue { .attribute(.string(value)) }
func number(_ value: Int64) -> PropertyValue { .attribute(.int(value)) }
func flag(_ value: Bool) -> PropertyValue { .attribute(.bool(value)) }
func to(_ id: ModelID?) -> PropertyValue { .relationship(id) }
func toMany(_ ids: [ModelID]) -> PropertyValue { .relationships(ids) }
let cleared = PropertyValue.attribute(nil)

/// One-operation saves, for the tests that set a scene.
extension Store {
    @discardableResult
    mutating func insert(
        _ entity: String,
        _ values: [String: PropertyValue] = [:],
        author: String = "app"
    ) throws(StoreError) -> ModelID {
        let id = makeModelID()
        var transaction = Transaction()
        transaction.append(.insert(id, entity: entity, values: values))
        _ = try save(transaction, author: author)
        return id
    }

    @discardableResult
    mutating func update(
        _ id: ModelID,
        _ values: [String: PropertyValue],
        author: String = "app"
    ) throws(StoreError) -> HistoryEntry? {
        var transaction = Transaction()
        transaction.append(.update(id, values: values))
        return try save(transaction, author: author)
    }

    @discardableResult
    mutating func delete(
        _ ids: ModelID...,
        author: String = "app"
    ) throws(StoreError) -> HistoryEntry? {
        var transaction = Transaction()
        for id in ids {
            transaction.append(.delete(id))
        }
        return try save(transaction, author: author)
    }

    /// The history entry of the last save.
    var lastEntry: HistoryEntry? {
        history(after: lastHistoryPosition - 1).last
    }
}

extension Transaction {
    init(_ operations: [Transaction.Operation]) {
        self.init()
        for operation in operations {
            append(operation)
        }
    }
}
