/// A diagnostic's ID, severity, message and suggestions, before it is placed in a file.
struct DiagnosticMessage: Hashable, Sendable {
    var id: DiagnosticID
    var severity: DiagnosticSeverity = .error
    var message: String
    var suggestions: [String] = []

    func diagnostic(file: String, at location: SourceLocation, notes: [DiagnosticNote] = [])
        -> Diagnostic
    {
        Diagnostic(
            severity: severity, id: id, file: file, location: location, message: message,
            suggestions: suggestions, notes: notes)
    }
}

/// The catalogue of every message the Scenario target can produce, in one place so that
/// wording stays consistent: lower case, tokens in single quotes, rule IDs in parentheses.
extension DiagnosticMessage {
    // MARK: Lexical

    static func unexpectedCharacter(_ character: String) -> Self {
        Self(id: "unexpected-character", message: "unexpected character '\(character)'")
    }

    static let unterminatedString = Self(
        id: "unterminated-string", message: "string has no closing '\"' on its line")

    static func unknownEscape(_ character: String) -> Self {
        Self(
            id: "unknown-escape",
            message: "unknown escape '\\\(character)'; strings allow '\\\"', '\\\\', '\\n' "
                + "and '\\t'")
    }

    // MARK: Syntax

    static let missingTitle = Self(
        id: "missing-title", message: "missing 'scenario \"title\"' statement")

    static func expected(_ what: String, found token: Token, suggestions: [String] = []) -> Self {
        Self(id: "expected", message: "expected \(what), found \(token.quoted)",
            suggestions: suggestions)
    }

    static func unexpectedToken(_ token: Token, suggestions: [String] = []) -> Self {
        Self(id: "unexpected-token", message: "unexpected \(token.quoted) at end of statement",
            suggestions: suggestions)
    }

    static func missingColonAfterDevice(_ device: String) -> Self {
        Self(id: "missing-colon", message: "expected ':' after device '\(device)'")
    }

    static func unknownStatement(_ word: String, suggestions: [String]) -> Self {
        Self(id: "unknown-statement", message: "unknown statement '\(word)'",
            suggestions: suggestions)
    }

    static func setupAfterTimeline(_ keyword: String, suggestions: [String]) -> Self {
        Self(id: "setup-after-timeline",
            message: "'\(keyword)' belongs to the setup, which must come before the timeline",
            suggestions: suggestions)
    }

    static func duplicateStatement(_ keyword: String) -> Self {
        Self(id: "duplicate-statement", message: "second '\(keyword)' statement")
    }

    static func extensionOfExtension(_ host: String) -> Self {
        Self(id: "extension-of-extension",
            message: "'\(host)' cannot host an extension: an extension's host is an app device")
    }

    static func extensionBeforeApp(_ host: String) -> Self {
        Self(id: "extension-before-app",
            message: "declare app device '\(host)' before its extension")
    }

    static func extensionWithAccount(_ device: String) -> Self {
        Self(id: "extension-with-account",
            message: "extension '\(device)' shares its app's account; remove 'on ACCOUNT'")
    }

    static func notSynchronizedBySchema(_ entity: String, _ key: String) -> Self {
        Self(id: "not-synchronized-by-schema",
            message: "'\(entity).\(key)' is not synchronized by the schema, so no process can "
                + "synchronize it")
    }

    static func duplicateClause(_ clause: String) -> Self {
        Self(id: "duplicate-clause", message: "'\(clause)' is given twice")
    }

    static let duplicateDeleteRule = Self(
        id: "duplicate-clause", message: "a relationship has one delete rule")

    static func invalidSeed(_ text: String) -> Self {
        Self(id: "invalid-seed",
            message: "seed '\(text)' must be a whole number from 0 to \(UInt64.max)")
    }

    static func reservedName(_ name: String, role: String) -> Self {
        Self(id: "reserved-name", message: "'\(name)' is a keyword and cannot be \(role)")
    }

    static func unknownCloudSetting(_ token: Token, suggestions: [String]) -> Self {
        guard token.kind == .identifier else {
            return expected("a cloud setting", found: token)
        }
        return Self(id: "unknown-cloud-setting", message: "unknown cloud setting \(token.quoted)",
            suggestions: suggestions)
    }

    static func unknownDeviceAction(_ token: Token, suggestions: [String]) -> Self {
        guard token.kind == .identifier else {
            return expected("a device action", found: token)
        }
        return Self(id: "unknown-device-action", message: "unknown device action \(token.quoted)",
            suggestions: suggestions)
    }

    static func unknownCloudAction(_ token: Token, suggestions: [String]) -> Self {
        guard token.kind == .identifier else {
            return expected("a cloud action", found: token)
        }
        return Self(id: "unknown-cloud-action", message: "unknown cloud action \(token.quoted)",
            suggestions: suggestions)
    }

    static func unknownErrorCode(_ token: Token, suggestions: [String]) -> Self {
        guard token.kind == .identifier else {
            return expected("a CloudKit error code", found: token)
        }
        return Self(id: "unknown-error-code", message: "unknown CloudKit error \(token.quoted)",
            suggestions: suggestions)
    }

    static func backgroundNotAllowed(_ action: String) -> Self {
        Self(id: "background-not-allowed",
            message: "'&' cannot follow '\(action)': only 'sync', 'launch', 'start', "
                + "'reset-sync-data' and 'initialize-schema' wait")
    }

    static func deviceOnlyExpectation(_ word: String) -> Self {
        Self(id: "device-only-expectation",
            message: "'\(word)' is an expectation about a device, not the cloud")
    }

    // MARK: Numbers

    static func durationWithoutUnit(_ text: String, suggestions: [String]) -> Self {
        Self(id: "invalid-duration",
            message: "duration '\(text)' needs a unit: 'us', 'ms', 's', 'm', 'h' or 'd'",
            suggestions: suggestions)
    }

    static func unknownDurationUnit(_ text: String, suggestions: [String]) -> Self {
        Self(id: "invalid-duration",
            message: "unknown unit in duration '\(text)'; "
                + "units are 'us', 'ms', 's', 'm', 'h' and 'd'",
            suggestions: suggestions)
    }

    static func negativeDuration(_ text: String) -> Self {
        Self(id: "invalid-duration", message: "duration '\(text)' must not be negative")
    }

    static func inexactDuration(_ text: String) -> Self {
        Self(id: "invalid-duration",
            message: "duration '\(text)' is not a whole number of microseconds")
    }

    static func invertedRange(lower: TimeSpan, upper: TimeSpan) -> Self {
        Self(id: "invalid-range",
            message: "range '\(lower)..\(upper)' has its lower bound above its upper bound")
    }

    static func invalidSize(_ text: String, suggestions: [String] = []) -> Self {
        Self(id: "invalid-size",
            message: "size '\(text)' must be a number of 'B', 'KB', 'MB' or 'GB'",
            suggestions: suggestions)
    }

    static func inexactSize(_ text: String) -> Self {
        Self(id: "invalid-size", message: "size '\(text)' is not a whole number of bytes")
    }

    static func invalidPercentage(_ text: String) -> Self {
        Self(id: "invalid-percentage",
            message: "percentage '\(text)' must be from '0%' to '100%' with at most 4 decimals")
    }

    /// A duration past what 64 bits of microseconds hold.
    static func durationTooLarge(_ text: String) -> Self {
        Self(id: "number-too-large",
            message: "duration '\(text)' is too large; the largest is "
                + "'\(TimeSpan(microseconds: .max))' (2^63-1 microseconds, about 292,000 years)")
    }

    /// A size past what 64 bits of bytes hold (sizes are capped far lower, `Limits`).
    static func sizeTooLarge(_ text: String) -> Self {
        Self(id: "number-too-large",
            message: "size '\(text)' is too large; the largest generated value is "
                + "\(Limits.sizeText(Limits.maximumGeneratedBytes))")
    }

    /// A count (page size, occurrence, records, models, events) past 64 bits.
    static func countTooLarge(_ text: String) -> Self {
        Self(id: "number-too-large",
            message: "number '\(text)' is too large; the largest is \(Int64.max)")
    }

    /// An integer value past 64 bits.
    static func integerTooLarge(_ text: String) -> Self {
        Self(id: "number-too-large",
            message: "number '\(text)' is too large; whole numbers go from \(Int64.min) to "
                + "\(Int64.max)")
    }

    static func generatedValueTooLarge(_ text: String) -> Self {
        Self(id: "value-too-large",
            message: "'\(text)' is larger than the "
                + "\(Limits.sizeText(Limits.maximumGeneratedBytes)) "
                + "a generated value may be (CloudKit's practical limit for one asset)")
    }

    static func budgetTooSmall(_ statement: String) -> Self {
        Self(id: "number-too-small", message: "'\(statement)' must be more than 0s")
    }

    /// A duration longer than the run may last (a SyncLab addition with `budget time`).
    static func beyondTimeBudget(_ text: String, budget: TimeSpan, hint: String) -> Self {
        Self(id: "beyond-time-budget",
            message: "duration '\(text)' is longer than the run's time budget of "
                + "\(budget.unitText); \(hint)")
    }

    /// A `wait` or `at` that takes the script past the time budget.
    static func scriptBeyondTimeBudget(
        _ statement: String, reaches: TimeSpan, budget: TimeSpan, hint: String
    ) -> Self {
        Self(id: "beyond-time-budget",
            message: "'\(statement)' takes the script to \(reaches.unitText), past the run's "
                + "time budget of \(budget.unitText); \(hint)")
    }

    /// `page` and `listing` say where the engine's catalogue is (sds: docs/RULES.md,
    /// 'synclab rules').
    static func unknownRule(
        _ rule: String, groupRange: String, page: String = "docs/RULES.md",
        listing: String = "synclab rules"
    ) -> Self {
        Self(id: "unknown-rule",
            message: "unknown rule '\(rule)'; the catalogue's rules of its group are "
                + "\(groupRange) (\(page), '\(listing)')")
    }

    static func unknownState(_ text: String, suggestions: [String]) -> Self {
        Self(id: "unknown-state", message: "unknown state '\(text)'", suggestions: suggestions)
    }

    static func numberTooSmall(_ text: String, minimum: Int) -> Self {
        Self(id: "number-too-small", message: "number '\(text)' must be at least \(minimum)")
    }

    static func unexpectedUnit(_ text: String) -> Self {
        Self(id: "invalid-value",
            message: "'\(text)' is not a value; values are numbers without units, strings, "
                + "'true', 'false', 'nil', labels, 'text(SIZE)', 'bytes(SIZE)' or 'hex\"...\"'")
    }

    static func invalidHexData(_ text: String) -> Self {
        Self(id: "invalid-hex-data",
            message: "hex data '\(text)' must be pairs of hex digits")
    }

    // MARK: Schema

    static func missingClosingBrace(_ entity: String) -> Self {
        Self(id: "missing-closing-brace", message: "entity '\(entity)' has no closing '}'")
    }

    static func unknownEntityMember(_ word: String, suggestions: [String]) -> Self {
        Self(id: "unknown-entity-member",
            message: "unknown entity member '\(word)'; expected 'name: Type', 'sync', "
                + "'identity' or 'sharable'",
            suggestions: suggestions)
    }

    static func unknownModifier(_ token: Token, suggestions: [String]) -> Self {
        guard token.kind == .identifier else {
            return expected("a property modifier", found: token, suggestions: suggestions)
        }
        return Self(id: "unknown-modifier", message: "unknown property modifier \(token.quoted)",
            suggestions: suggestions)
    }

    static func unknownType(_ type: String, suggestions: [String]) -> Self {
        Self(id: "unknown-type",
            message: "unknown type '\(type)'; types are 'String', 'Int', 'Double', 'Bool', "
                + "'Date', 'UUID', 'URL', 'Data' and declared entities",
            suggestions: suggestions)
    }

    static func toManyAttribute(_ type: String) -> Self {
        Self(id: "to-many-attribute",
            message: "'[\(type)]' is not a type: a to-many relationship names an entity")
    }

    static func relationshipModifierOnAttribute(_ modifier: String, property: String) -> Self {
        Self(id: "misplaced-modifier",
            message: "'\(modifier)' applies to relationships, and '\(property)' is an attribute")
    }

    static func assetNeedsDataOrString(_ property: String, type: String) -> Self {
        Self(id: "misplaced-modifier",
            message: "'asset' applies to 'Data' and 'String' attributes, and '\(property)' is "
                + "'\(type)'")
    }

    static func relationshipNotOptional(_ property: String, suggestions: [String]) -> Self {
        Self(id: "relationship-not-optional",
            message: "to-one relationship '\(property)' must be optional, as CloudKit requires",
            suggestions: suggestions)
    }

    static func relationshipDefault(_ property: String) -> Self {
        Self(id: "misplaced-modifier",
            message: "relationship '\(property)' cannot have a default value")
    }

    static func parentOnToMany(_ property: String) -> Self {
        Self(id: "misplaced-modifier",
            message: "'parent' applies to to-one relationships, and '\(property)' is to-many")
    }
}

/// Messages of the validation pass.
extension DiagnosticMessage {
    /// `duplicate-device`, `duplicate-key`, ...: the kind with spaces as hyphens.
    static func duplicateDeclaration(_ kind: String, _ name: String) -> Self {
        Self(id: DiagnosticID("duplicate-" + hyphenated(kind)),
            message: "duplicate \(kind) '\(name)'")
    }

    /// `unknown-device`, `unknown-probe-point`, ...
    /// `cloud: delete-zone alice zone NAME` naming a zone no fault can act on.
    /// `raw pinned=true`: CloudKit has no Bool type; the stored value is a number.
    static func rawBool(_ text: String, field: String) -> Self {
        Self(id: "type-mismatch",
            message: "raw field '\(field)' cannot hold '\(text)': CloudKit stores a Bool as "
                + "the number 1 or 0",
            suggestions: [text == "true" ? "1" : "0"])
    }

    static func invalidZoneName(_ name: String, problem: String) -> Self {
        Self(id: "invalid-zone-name", message: "zone '\(name)' cannot be named here: \(problem)")
    }

    /// `choices` (the valid names, or where to find them) follows the message when no
    /// name is close enough to suggest: a reader far from every name needs the list.
    static func unknownName(
        _ kind: String, _ name: String, suggestions: [String], choices: String? = nil
    ) -> Self {
        let tail = suggestions.isEmpty ? choices.map { "; " + $0 } ?? "" : ""
        return Self(id: DiagnosticID("unknown-" + hyphenated(kind)),
            message: "unknown \(kind) '\(name)'" + tail, suggestions: suggestions)
    }

    /// `'a', 'b' and 'c'`.
    static func quotedList(_ names: [String]) -> String {
        let quoted = names.map { "'\($0)'" }
        guard let last = quoted.last, quoted.count > 1 else { return quoted.first ?? "none" }
        return quoted.dropLast().joined(separator: ", ") + " and " + last
    }

    /// The engines a file may name, listed in full (the registry holds a few).
    static func engineChoices(_ engines: [String]) -> String {
        "the engines are \(quotedList(engines)) ('synclab engines' describes them)"
    }

    /// An engine's probe points are too many to list in a message: the command that does.
    static func probePointChoices(engine: String?) -> String {
        guard let engine else { return "'synclab probes' lists the probe points" }
        return "'synclab probes --engine \(engine)' lists the probe points of engine '\(engine)'"
    }

    /// `engine X` or `expect [X] …` naming an engine the `engines` line does not list.
    static func engineNotListed(_ engine: String, listed: [String], suggestions: [String] = [])
        -> Self
    {
        let message = listed.isEmpty
            ? "engine '\(engine)' is not in an 'engines' line; "
                + "add 'engines \(engine), …' to the setup"
            : "engine '\(engine)' is not in the file's 'engines' line ("
                + listed.map { "'\($0)'" }.joined(separator: ", ") + ")"
        return Self(id: "engine-not-listed", message: message, suggestions: suggestions)
    }

    /// A statement the scenario's engine cannot carry out.
    static func unsupportedByEngine(_ statement: String, engine: String) -> Self {
        Self(id: "unsupported-statement",
            message: "engine '\(engine)' does not support '\(statement)'")
    }

    private static func hyphenated(_ kind: String) -> String {
        String(kind.map { $0 == " " ? "-" : $0 })
    }

    static func duplicateSetting(_ setting: String) -> Self {
        Self(id: "duplicate-setting", message: "'\(setting)' is set twice in the setup")
    }

    static func unknownProperty(
        _ name: String, entity: String, suggestions: [String], properties: [String]
    ) -> Self {
        let tail = suggestions.isEmpty ? "; its properties are " + quotedList(properties) : ""
        return Self(id: "unknown-property",
            message: "entity '\(entity)' has no property '\(name)'" + tail,
            suggestions: suggestions)
    }

    // MARK: Configuration rules

    static func unsynchronizedRequired(_ property: String) -> Self {
        Self(id: "unsynchronized-required-property",
            message: "property '\(property)' is not synchronized, so it must be optional or "
                + "have a default value (CFG-2)")
    }

    static func identityNotAttribute(_ name: String) -> Self {
        Self(id: "identity-not-attribute",
            message: "identity '\(name)' is a relationship; an identity names attributes")
    }

    static func identityNotSynchronized(_ name: String) -> Self {
        Self(id: "identity-not-synchronized",
            message: "identity attribute '\(name)' must be synchronized")
    }

    static func identityAsset(_ name: String) -> Self {
        Self(id: "identity-asset",
            message: "identity attribute '\(name)' cannot be an asset property (ID-6)")
    }

    static func identitySharable(_ entity: String) -> Self {
        Self(id: "identity-sharable",
            message: "entity '\(entity)' has an identity, so it cannot be 'sharable' (ID-6)")
    }

    static func identityBelowSharable(_ entity: String, ancestor: String) -> Self {
        Self(id: "identity-below-sharable",
            message: "entity '\(entity)' has an identity, so it cannot be below sharable "
                + "entity '\(ancestor)' (ID-6)")
    }

    static func identityParent(_ entity: String, child: String) -> Self {
        Self(id: "identity-parent",
            message: "entity '\(entity)' has an identity, so it cannot be the parent of "
                + "'\(child)' (ID-6)")
    }

    // MARK: Relationships

    static func secondParent(_ entity: String) -> Self {
        Self(id: "multiple-parents",
            message: "entity '\(entity)' has a second 'parent' relationship; a record has one "
                + "parent")
    }

    static func sharedInverse(_ inverse: String, other: String) -> Self {
        Self(id: "duplicate-inverse",
            message: "'\(inverse)' is already the inverse of '\(other)'")
    }

    static func unknownInverse(_ name: String, entity: String, suggestions: [String]) -> Self {
        Self(id: "unknown-inverse",
            message: "entity '\(entity)' has no relationship '\(name)' to be the inverse",
            suggestions: suggestions)
    }

    static func invalidInverse(_ name: String, entity: String, expectedTarget: String) -> Self {
        Self(id: "invalid-inverse",
            message: "inverse '\(name)' must be a to-one relationship of '\(entity)' to "
                + "'\(expectedTarget)'")
    }

    static func inverseMismatch(_ name: String, other: String, otherInverse: String) -> Self {
        Self(id: "inverse-mismatch",
            message: "'\(name)' names '\(other)' as its inverse, but '\(other)' names "
                + "'\(otherInverse)'")
    }

    // MARK: Timeline

    static func timeGoesBackwards(_ time: TimeSpan, earliest: TimeSpan) -> Self {
        Self(id: "time-goes-backwards",
            message: "time '\(time)' is before '\(earliest)', the earliest the script can be "
                + "at here")
    }

    static func unboundLabel(_ label: String, suggestions: [String]) -> Self {
        Self(id: "unknown-label",
            message: "label '\(label)' is not bound by an earlier 'insert'",
            suggestions: suggestions)
    }

    static func duplicateLabel(_ label: String) -> Self {
        Self(id: "duplicate-label", message: "label '\(label)' is already bound")
    }

    static func missingValues(_ properties: [String], label: String) -> Self {
        let list = properties.map { "'\($0)'" }.joined(separator: ", ")
        return Self(id: "missing-value",
            message: "insert of '\(label)' must set \(list): neither optional nor defaulted")
    }

    static func notSharable(_ label: String, entity: String) -> Self {
        Self(id: "not-sharable",
            message: "label '\(label)' is a '\(entity)', which is not 'sharable'")
    }

    static func nestedTransaction(_ device: String) -> Self {
        Self(id: "nested-transaction",
            message: "'begin' on '\(device)' while its transaction is still open")
    }

    static func noOpenTransaction(_ word: String, device: String) -> Self {
        Self(id: "no-open-transaction",
            message: "'\(word)' on '\(device)' without an open 'begin'")
    }

    static func invalidRuleID(_ text: String, suggestions: [String]) -> Self {
        Self(id: "invalid-rule-id", message: "'\(text)' is not a rule ID such as 'SYNC-4'",
            suggestions: suggestions)
    }

    // MARK: Values

    static func nilNotOptional(_ property: String) -> Self {
        Self(id: "nil-not-optional",
            message: "'nil' is not allowed: property '\(property)' is not optional")
    }

    static func typeMismatch(
        _ text: String, property: String, type: AttributeType, suggestions: [String]
    ) -> Self {
        Self(id: "type-mismatch",
            message: "property '\(property)' of type '\(type.rawValue)' needs "
                + "\(expectedForm(of: type)), found '\(text)'",
            suggestions: suggestions)
    }

    /// How a value of each type is written, for type-mismatch messages.
    static func expectedForm(of type: AttributeType) -> String {
        switch type {
        case .string: return "a string in quotes or 'text(SIZE)'"
        case .int: return "a whole number"
        case .double: return "a number"
        case .bool: return "'true' or 'false'"
        case .date: return "a date such as '\"2026-01-01T10:00:00.123Z\"'"
        case .uuid: return "a UUID such as '\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\"'"
        case .url: return "a URL such as '\"https://example.org\"'"
        case .data: return "'hex\"00ff\"' or 'bytes(SIZE)'"
        }
    }

    static func toManyAssignment(_ property: String, inverse: String?) -> Self {
        let side = inverse.map { "'\($0)'" } ?? "the to-one relationship"
        return Self(id: "to-many-assignment",
            message: "to-many relationship '\(property)' cannot be set; set \(side) on the "
                + "other side")
    }

    static func labelTypeMismatch(
        _ label: String, entity: String, property: String, target: String
    ) -> Self {
        Self(id: "label-type-mismatch",
            message: "label '\(label)' is a '\(entity)', but '\(property)' holds a '\(target)'")
    }

    static func relationshipNeedsLabel(_ text: String, property: String, target: String) -> Self {
        Self(id: "type-mismatch",
            message: "relationship '\(property)' needs a label of a '\(target)' or 'nil', "
                + "found '\(text)'")
    }
}

extension DiagnosticID: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }
}
