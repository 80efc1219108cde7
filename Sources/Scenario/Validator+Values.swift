/// Where a `key=value` list appears; it decides what `nil` may mean.
enum AssignmentContext {
    /// `insert` and `update`: nil clears an optional.
    case assignment
    /// `where` of `batch-delete` and `count`.
    case filter
    /// `expect DEVICE: LABEL ...`: nil means empty, so only optionals can be nil.
    case deviceExpectation
    /// `expect cloud ACCOUNT: LABEL ...`: nil means the record lacks the key, which any
    /// property can (LIM-1 leaves records with only the edited keys).
    case cloudExpectation
}

/// Checks `key=value` lists against an entity: known keys, each once, values that fit.
extension Validator {
    mutating func checkAssignments(
        _ assignments: [Assignment], entity: EntityDeclaration, context: AssignmentContext,
        state: TimelineState
    ) {
        reportDuplicates(assignments.map(\.key), kind: "key")
        for assignment in assignments {
            let key = assignment.key
            if let attribute = entity.attribute(named: key.value) {
                let nilAllowed = attribute.isOptional || context == .cloudExpectation
                checkAttributeValue(assignment.value, attribute: attribute, nilAllowed: nilAllowed)
            } else if let relationship = entity.relationship(named: key.value) {
                checkRelationshipValue(assignment.value, relationship: relationship, state: state)
            } else {
                reportUnknownProperty(key, of: entity)
            }
        }
    }

    mutating func checkAttributeValue(
        _ value: Value, attribute: AttributeDeclaration, nilAllowed: Bool
    ) {
        let name = attribute.name.value
        if case .null = value.literal {
            if !nilAllowed { report(.nilNotOptional(name), at: value.location) }
            return
        }
        guard value.attributeValue(for: attribute.type) == nil else { return }
        var suggestions: [String] = []
        if case .label(let word) = value.literal,
            [.string, .date, .uuid, .url].contains(attribute.type)
        {
            suggestions = ["\"\(word)\""]
        }
        report(.typeMismatch(value.text, property: name, type: attribute.type,
            suggestions: suggestions), at: value.location)
    }

    private mutating func checkRelationshipValue(
        _ value: Value, relationship: RelationshipDeclaration, state: TimelineState
    ) {
        let name = relationship.name.value
        guard relationship.cardinality == .toOne else {
            report(.toManyAssignment(name, inverse: relationship.inverse?.value),
                at: value.location)
            return
        }
        switch value.literal {
        case .null:
            return
        case .label(let label):
            guard let binding = requireLabel(Located(label, at: value.location), state: state),
                binding.entity != relationship.target.value
            else { return }
            report(.labelTypeMismatch(label, entity: binding.entity, property: name,
                target: relationship.target.value), at: value.location)
        default:
            report(.relationshipNeedsLabel(value.text, property: name,
                target: relationship.target.value), at: value.location)
        }
    }
}
