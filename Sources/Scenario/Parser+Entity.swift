/// `entity NAME { ... }` blocks, the one statement that spans lines.
extension Parser {
    static let propertyModifiers =
        ["asset", "parent", "inverse"] + DeleteRule.allCases.map(\.rawValue)

    mutating func parseEntity(_ keyword: Token) -> Bool {
        guard let entityName = declaredName("an entity name") else { return false }
        var entity = RawEntity(name: entityName, location: keyword.location)
        guard let open = expect(.leftBrace, "'{'") else { return false }
        var closed = false
        while !closed {
            let start = position
            while current.kind == .newline { advance() }
            if current.kind == .rightBrace {
                advance()
                closed = true
            } else if current.kind == .endOfFile || startsTopLevelStatement() {
                report(.missingClosingBrace(entityName.value), at: open.location)
                resumesAtCurrentToken = true
                break
            } else if !parseMember(of: &entity) {
                skipMember()
            } else if !current.endsLine && current.kind != .rightBrace {
                report(.unexpectedToken(current), at: current.location)
                skipMember()
            }
            if position == start { advance() }
        }
        rawEntities.append(entity)
        return closed
    }

    /// Whether the line looks like a statement of its own rather than a member of a block,
    /// which means the block's `}` is missing.
    private func startsTopLevelStatement() -> Bool {
        let token = current
        guard token.kind == .identifier, peek().kind != .colon else { return false }
        if ["sync", "identity", "sharable"].contains(token.text) { return false }
        return StatementTable.rule(for: token.text) != nil
    }

    /// One line of a block; false when it reported an error and the rest must be skipped.
    private mutating func parseMember(of entity: inout RawEntity) -> Bool {
        let token = current
        guard token.kind == .identifier else {
            report(.expected("a property, 'sync', 'identity' or 'sharable'", found: token),
                at: token.location)
            return false
        }
        if peek().kind == .colon {
            guard let property = parseProperty() else { return false }
            entity.properties.append(property)
            return true
        }
        switch token.text {
        case "sync":
            return parseSyncClause(of: &entity)
        case "identity":
            return parseIdentityClause(of: &entity)
        case "sharable":
            advance()
            if entity.sharableLocation != nil {
                report(.duplicateClause("sharable"), at: token.location)
            }
            entity.sharableLocation = token.location
            return true
        default:
            let members = ["sync", "identity", "sharable"]
            let suggestions = Suggestions.closest(to: token.text, among: members)
            report(.unknownEntityMember(token.text, suggestions: suggestions), at: token.location)
            return false
        }
    }

    private mutating func skipMember() {
        while !current.endsLine && current.kind != .rightBrace { advance() }
    }

    /// `name: Type[?] [= literal] [asset] [parent] [inverse(x)] [cascade|nullify|deny]`.
    private mutating func parseProperty() -> RawProperty? {
        guard let propertyName = name("a property name") else { return nil }
        advance()
        var isBracketed = false
        if current.kind == .leftBracket {
            advance()
            isBracketed = true
        }
        guard let typeName = name("a type") else { return nil }
        if isBracketed, expect(.rightBracket, "']'") == nil { return nil }
        var property = RawProperty(
            name: propertyName, typeName: typeName, isBracketed: isBracketed,
            location: propertyName.location)
        if current.kind == .questionMark {
            advance()
            property.isOptional = true
        }
        while !current.endsLine && current.kind != .rightBrace {
            guard parseModifier(of: &property) else { return nil }
        }
        return property
    }

    private mutating func parseModifier(of property: inout RawProperty) -> Bool {
        let token = current
        if token.kind == .equals {
            advance()
            guard let value = parseValue() else { return false }
            if property.defaultValue != nil { report(.duplicateClause("="), at: token.location) }
            property.defaultValue = value
            return true
        }
        guard token.kind == .identifier, Self.propertyModifiers.contains(token.text) else {
            let suggestions = Suggestions.closest(to: token.text, among: Self.propertyModifiers)
            report(.unknownModifier(token, suggestions: suggestions), at: token.location)
            return false
        }
        advance()
        switch token.text {
        case "asset":
            if property.assetLocation != nil {
                report(.duplicateClause("asset"), at: token.location)
            }
            property.assetLocation = token.location
        case "parent":
            if property.parentLocation != nil {
                report(.duplicateClause("parent"), at: token.location)
            }
            property.parentLocation = token.location
        case "inverse":
            guard expect(.leftParenthesis, "'('") != nil, let inverse = name("a relationship name"),
                expect(.rightParenthesis, "')'") != nil
            else { return false }
            if property.inverse != nil { report(.duplicateClause("inverse"), at: token.location) }
            property.inverse = inverse
        default:
            if property.deleteRule != nil { report(.duplicateDeleteRule, at: token.location) }
            property.deleteRule = DeleteRule(rawValue: token.text).map {
                Located($0, at: token.location)
            }
        }
        return true
    }

    /// `sync all | none | only(a, b) | except(a, b)`.
    private mutating func parseSyncClause(of entity: inout RawEntity) -> Bool {
        let keyword = advance()
        let mode = current
        let modes = ["all", "none", "only", "except"]
        guard mode.kind == .identifier, modes.contains(mode.text) else {
            let suggestions = Suggestions.closest(to: mode.text, among: modes)
            report(.expected("'all', 'none', 'only(...)' or 'except(...)'", found: mode,
                suggestions: suggestions), at: mode.location)
            return false
        }
        advance()
        let specification: SyncSpecification
        switch mode.text {
        case "all": specification = .all
        case "none": specification = .none
        default:
            guard let names = parseNameList("a property name") else { return false }
            specification = mode.text == "only" ? .only(names) : .except(names)
        }
        if entity.syncLocation != nil { report(.duplicateClause("sync"), at: keyword.location) }
        entity.sync = specification
        entity.syncLocation = keyword.location
        return true
    }

    /// `identity(a, b)`.
    private mutating func parseIdentityClause(of entity: inout RawEntity) -> Bool {
        let keyword = advance()
        guard let names = parseNameList("an attribute name") else { return false }
        if entity.identityLocation != nil {
            report(.duplicateClause("identity"), at: keyword.location)
        }
        entity.identity = names
        entity.identityLocation = keyword.location
        return true
    }

    /// `(name, name, ...)` with at least one name.
    mutating func parseNameList(_ what: String) -> [Located<String>]? {
        guard expect(.leftParenthesis, "'('") != nil else { return nil }
        var names: [Located<String>] = []
        while true {
            guard let item = name(what) else { return nil }
            names.append(item)
            if current.kind == .comma {
                advance()
                continue
            }
            guard expect(.rightParenthesis, "',' or ')'") != nil else { return nil }
            return names
        }
    }
}
