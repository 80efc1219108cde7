/// The three operations of a transaction, and the checks of the values they write (DL-4
/// relies on them: a record the store rejects has values invalid for the model).
extension SaveDraft {
    mutating func apply(_ operation: Transaction.Operation) throws(StoreError) {
        switch operation {
        case .insert(let id, let entity, let values):
            try insert(id, entity: entity, values: values)
        case .update(let id, let values):
            try update(id, values: values)
        case .delete(let id):
            try delete(id)
        }
    }

    private mutating func insert(
        _ id: ModelID,
        entity name: String,
        values: [String: PropertyValue]
    ) throws(StoreError) {
        guard let entity = schema.entity(named: name) else { throw .unknownEntity(name) }
        guard id.rawValue > 0, id.rawValue < UInt64.max else {
            throw .invalidValue(entity: name, property: "id", reason: "\(id) is not an identifier")
        }
        // A model inserted and deleted earlier in this transaction was touched: its identifier
        // is used up as well.
        guard !models.contains(id), !isTouched(id) else {
            throw .invalidValue(entity: name, property: "id", reason: "\(id) is already in use")
        }
        // Most operations carry one value: it is walked where it is, without sorting the
        // values into a new array.
        if values.count <= 1 {
            try checkNames(values.keys, of: entity) // tidy: ordered (one value at most)
            try insert(id, named: name, of: entity,
                       setting: values) // tidy: ordered (one value at most)
        } else if values.count <= ValuesByName.insertedInOrderAtMost {
            try ValuesByName.withSorted(values) { sorted throws(StoreError) in
                try checkNames(sorted.names, of: entity)
                try insert(id, named: name, of: entity, setting: sorted)
            }
        } else {
            try ValuesByName.withManySorted(values) { sorted throws(StoreError) in
                try checkNames(sorted.names, of: entity)
                try insert(id, named: name, of: entity, setting: sorted)
            }
        }
    }

    /// `insert` once the identifier and the names passed: the defaults, then the values.
    private mutating func insert<Values: Sequence>(
        _ id: ModelID,
        named name: String,
        of entity: EntityDescription,
        setting values: Values
    ) throws(StoreError) where Values.Element == (key: String, value: PropertyValue) {
        // An identifier not reserved through `makeModelID()` is never handed out later.
        nextRawValue = max(nextRawValue, id.rawValue + 1)
        let attributes = entity.attributes
        if !entity.defaultsAreStorable {
            // By position: walking the descriptions copied each one out (its name and default).
            for index in attributes.indices {
                guard let value = attributes[index].defaultValue else { continue }
                try check(value, for: attributes, at: index, of: entity)
            }
        }
        // The defaults taken whole, with room for every attribute's value made in the same
        // allocation, not set one by one and grown for each value the operation sets.
        let model = Model(
            id: id, entity: name,
            values: entity.defaultValues.copy(reservingCapacity: attributes.count))
        write(model)
        try set(values, on: id, of: entity)
    }

    private mutating func update(
        _ id: ModelID,
        values: [String: PropertyValue]
    ) throws(StoreError) {
        guard let entityName = entityName(of: id) else { throw .unknownModel(id) }
        guard let entity = schema.entity(named: entityName) else {
            preconditionFailure("\(id) is of undeclared entity '\(entityName)'")
        }
        if values.count <= 1 {
            try checkNames(values.keys, of: entity) // tidy: ordered (one value at most)
            try update(id, of: entity, setting: values) // tidy: ordered (one value at most)
        } else if values.count <= ValuesByName.insertedInOrderAtMost {
            try ValuesByName.withSorted(values) { sorted throws(StoreError) in
                try checkNames(sorted.names, of: entity)
                try update(id, of: entity, setting: sorted)
            }
        } else {
            try ValuesByName.withManySorted(values) { sorted throws(StoreError) in
                try checkNames(sorted.names, of: entity)
                try update(id, of: entity, setting: sorted)
            }
        }
    }

    /// `update` of an existing model once the names passed: the values.
    private mutating func update<Values: Sequence>(
        _ id: ModelID,
        of entity: EntityDescription,
        setting values: Values
    ) throws(StoreError) where Values.Element == (key: String, value: PropertyValue) {
        if touch(id) { sharedValues = id }
        defer { sharedValues = nil }
        try set(values, on: id, of: entity)
    }

    /// Removes the model now; its delete rules apply once every operation did. Deleting a
    /// model deleted earlier in the same transaction does nothing more.
    private mutating func delete(_ id: ModelID) throws(StoreError) {
        guard models.contains(id) else {
            guard isDeleted(id) else { throw .unknownModel(id) }
            return
        }
        listExplicitDeletion(id)
        bury(id)
    }

    /// The names alone: walking the pairs read each value too.
    private func checkNames<Names: Sequence>(
        _ names: Names,
        of entity: EntityDescription
    ) throws(StoreError) where Names.Element == String {
        for name in names // tidy: ordered (sorted by name, or one value at most)
        where !entity.hasProperty(named: name) {
            throw .unknownProperty(entity: entity.name, property: name)
        }
    }

    /// Writes the values in the order of their names, so that the first error is the same in
    /// every process.
    private mutating func set<Values: Sequence>(
        _ values: Values,
        on id: ModelID,
        of entity: EntityDescription
    ) throws(StoreError) where Values.Element == (key: String, value: PropertyValue) {
        // An attribute is found by position and read where it is stored: `attribute(named:)`
        // copies its description out (its name and default value retained, then released),
        // and this runs for every value of every save.
        let attributes = entity.attributes
        for (name, value) in values { // tidy: ordered (sorted by name, or one value at most)
            if let index = attributes.firstIndex(where: { $0.name == name }) {
                // The attribute's value bound here, where the pair ends: moved on into the
                // map, not copied again by a call that binds it from the pair.
                guard case .attribute(let newValue) = value else {
                    let type = attributes[index].type.rawValue
                    throw .invalidValue(
                        entity: entity.name, property: attributes[index].name,
                        reason: "expected a value of type \(type), not a relationship"
                    )
                }
                try setAttribute(at: index, of: attributes, to: newValue, on: id, of: entity)
            } else if let relationship = entity.relationship(named: name) {
                try setRelationship(relationship, to: value, on: id, of: entity)
            } else {
                preconditionFailure("'\(name)' passed the name check of '\(entity.name)'")
            }
        }
    }

    /// Clearing a non-optional attribute that has a default stores the default: such an
    /// attribute never lacks a value (a downloaded record that leaves out its key cannot
    /// empty it). Clearing one without a default is refused at the end of the transaction.
    /// The attribute is `attributes[index]` (the entity's), read where it is stored.
    private mutating func setAttribute(
        at index: Int,
        of attributes: [AttributeDescription],
        to newValue: consuming AttributeValue?,
        on id: ModelID,
        of entity: EntityDescription
    ) throws(StoreError) {
        var stored =
            newValue ?? (attributes[index].isOptional ? nil : attributes[index].defaultValue)
        if let stored {
            try check(stored, for: attributes, at: index, of: entity)
        }
        // Only the name is captured: the closure held the whole description. The value is
        // moved into the map, not copied and then released.
        let name = attributes[index].name
        let copiesValues = sharedValues == id
        if copiesValues { sharedValues = nil }
        // The operation's own model, touched when the operation began.
        modifyTouched(id) { model in
            if copiesValues {
                model.values = model.values.copy(reservingCapacity: model.values.count + 1)
            }
            model.values[name] = stored.take()
        }
    }

    /// Checks a value for the attribute `attributes[index]` (of `entity`), read where it is
    /// stored: passing the description copied it.
    func check(
        _ value: AttributeValue,
        for attributes: [AttributeDescription],
        at index: Int,
        of entity: EntityDescription
    ) throws(StoreError) {
        if let reason = AttributeValue.problem(storing: value, as: attributes[index].type) {
            throw .invalidValue(
                entity: entity.name, property: attributes[index].name, reason: reason)
        }
    }
}

extension AttributeValue {
    /// Why the store cannot hold `value` for an attribute of type `type`; nil when it can.
    static func problem(storing value: AttributeValue, as type: AttributeType) -> String? {
        guard value.type == type else {
            return "expected \(type.rawValue), got \(value.type.rawValue)"
        }
        switch value {
        case .double(let number) where number.isNaN:
            // NaN is not equal to itself: a store holding it would not equal its own copy.
            return "NaN is not a storable number"
        case .uuid(let text) where !isCanonicalUUID(text):
            return "'\(text)' is not a UUID in upper case with hyphens"
        default:
            return nil
        }
    }

    /// Whether a text is a UUID as the store keeps them: 8-4-4-4-12 upper-case hex digits.
    static func isCanonicalUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (offset, byte) in bytes.enumerated() {
            let isHyphenPlace = offset == 8 || offset == 13 || offset == 18 || offset == 23
            let isHexDigit = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46)
            guard isHyphenPlace ? byte == 0x2D : isHexDigit else { return false }
        }
        return true
    }
}
