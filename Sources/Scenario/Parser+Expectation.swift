/// `expect ...` statements.
extension Parser {
    /// Expectation words that only make sense about a device, not about the cloud.
    static let deviceOnlyExpectations = [
        "state", "downloaded-once", "not", "pending", "fired", "refused", "load-error",
    ]

    mutating func parseExpectation(_ keyword: Token) -> Bool {
        var engine: Located<String>?
        if current.kind == .leftBracket {
            // `expect [naive] …`: an expectation of one engine's runs.
            advance()
            guard let name = name("an engine name"),
                expect(.rightBracket, "']'") != nil
            else { return false }
            engine = name
        }
        guard let kind = parseExpectationKind() else { return false }
        appendTimeline(
            .expectation(Expectation(kind, location: keyword.location, engine: engine)),
            at: keyword.location)
        return true
    }

    private mutating func parseExpectationKind() -> ExpectationKind? {
        let word = current
        if word.isKeyword("converged") {
            advance()
            return .converged(expected: true)
        }
        if word.isKeyword("fired") || word.isKeyword("not") {
            return parseNegatable(device: nil)
        }
        if word.isKeyword("failure") && peek().kind != .colon {
            // Not a device called `failure`: `expect failure "TEXT"`.
            advance()
            return quotedText("the text of the failure in quotes").map { .failure(text: $0) }
        }
        if word.isKeyword("warning") && peek().kind != .colon {
            // Not a device called `warning`: `expect warning "TEXT"`.
            advance()
            return quotedText("the text of the warning in quotes").map { .warning(text: $0) }
        }
        if word.isKeyword("cloud") && peek().kind == .identifier {
            advance()
            guard let account = name("an account name"), expect(.colon, "':'") != nil else {
                return nil
            }
            return parseCloudExpectation(account: account)
        }
        guard word.kind == .identifier, peek().kind == .colon else {
            report(.expected("'DEVICE:', 'cloud ACCOUNT:', 'converged' or 'fired'", found: word),
                at: word.location)
            return nil
        }
        guard let device = name("a device name") else { return nil }
        advance()
        return parseDeviceExpectation(device: device)
    }

    /// `[not] fired RULE`, `not converged`, `not downloaded-once` (the latter with a device).
    private mutating func parseNegatable(device: Located<String>?) -> ExpectationKind? {
        var expected = true
        if current.isKeyword("not") {
            advance()
            expected = false
        }
        let word = current
        if word.isKeyword("fired") {
            advance()
            return name("a rule ID such as 'SYNC-4'").map {
                .fired(device: device, rule: $0, expected: expected)
            }
        }
        if let device, word.isKeyword("downloaded-once"), !expected {
            advance()
            return .downloadedOnce(device: device, expected: false)
        }
        if device == nil, word.isKeyword("converged"), !expected {
            advance()
            return .converged(expected: false)
        }
        let options = device == nil ? ["fired", "converged"] : ["fired", "downloaded-once"]
        let suggestions = Suggestions.closest(to: word.text, among: options)
        let what = options.map { "'\($0)'" }.joined(separator: " or ")
        report(.expected(what, found: word, suggestions: suggestions), at: word.location)
        return nil
    }

    private mutating func parseDeviceExpectation(device: Located<String>) -> ExpectationKind? {
        let word = current
        let scope = ExpectationScope.device(device)
        switch word.kind == .identifier ? word.text : "" {
        case "no":
            advance()
            return label().map { .absent(scope, label: $0) }
        case "count":
            advance()
            return parseCountExpectation(scope)
        case "state":
            advance()
            return parseState(device: device)
        case "downloaded-once":
            advance()
            return .downloadedOnce(device: device, expected: true)
        case "pending":
            advance()
            let location = current.location
            return parseCount("a number of models", minimum: 0).map {
                .pending(device: device, count: Located($0, at: location))
            }
        case "not", "fired":
            return parseNegatable(device: device)
        case "load-error" where peek().kind == .string:
            advance()
            return quotedText("the text of the load error in quotes").map {
                .loadError(device: device, text: $0)
            }
        case "refused":
            advance()
            let word = current
            guard word.kind == .identifier, let code = CloudKitErrorCode(rawValue: word.text) else {
                let names = CloudKitErrorCode.allCases.map(\.rawValue)
                let suggestions = Suggestions.closest(to: word.text, among: names)
                report(.unknownErrorCode(word, suggestions: suggestions), at: word.location)
                return nil
            }
            advance()
            return .refused(device: device, error: Located(code, at: word.location))
        default:
            guard let label = label(), let values = parseAssignments() else { return nil }
            return .values(scope, label: label, values: values)
        }
    }

    private mutating func parseCloudExpectation(account: Located<String>) -> ExpectationKind? {
        let word = current
        let scope = ExpectationScope.cloud(account: account)
        if word.isKeyword("no") {
            advance()
            return label().map { .absent(scope, label: $0) }
        }
        if word.isKeyword("count") {
            advance()
            return parseCountExpectation(scope)
        }
        // `query n1 named …` (and `in`, `raw`) is a label called `query`.
        if word.isKeyword("query"), peek().kind == .identifier,
            !["named", "in", "raw"].contains(peek().text)
        {
            advance()
            return parseQueryExpectation(account: account, keyword: word)
        }
        if word.kind == .identifier, Self.deviceOnlyExpectations.contains(word.text) {
            report(.deviceOnlyExpectation(word.text), at: word.location)
            return nil
        }
        guard let label = label() else { return nil }
        if current.isKeyword("named") {
            advance()
            guard let text = expect(.string, "a record name in quotes") else { return nil }
            return .recordName(
                account: account, label: label, name: Located(text.value, at: text.location))
        }
        if current.isKeyword("in") && peek().kind != .equals {
            advance()
            return parseZoneName().map { .recordZone(account: account, label: label, zone: $0) }
        }
        if current.isKeyword("raw") && peek().kind != .equals {
            advance()
            return parseRawAssignments().map {
                .rawValues(account: account, label: label, values: $0)
            }
        }
        return parseAssignments().map { .values(scope, label: label, values: $0) }
    }

    /// `zone NAME` after `in`: NAME an identifier or a string.
    private mutating func parseZoneName() -> Located<String>? {
        guard expectKeyword("zone") else { return nil }
        let word = current
        guard word.kind == .identifier || word.kind == .string else {
            report(.expected("a zone name", found: word), at: word.location)
            return nil
        }
        advance()
        return Located(word.value, at: word.location)
    }

    /// `FIELD=VALUE …` after `raw`: at least one.
    private mutating func parseRawAssignments() -> [Assignment]? {
        guard current.kind == .identifier && peek().kind == .equals else {
            report(.expected("a field such as 'CD_title=\"B\"'", found: current),
                at: current.location)
            return nil
        }
        return parseAssignments()
    }

    /// A string; its text and where it is.
    private mutating func quotedText(_ what: String) -> Located<String>? {
        guard let text = expect(.string, what) else { return nil }
        return Located(text.value, at: text.location)
    }

    /// `count ENTITY [where key=value ...] = N`, or `>=`, `<=`, `>`, `<` for a bound.
    private mutating func parseCountExpectation(_ scope: ExpectationScope) -> ExpectationKind? {
        guard let entity = name("an entity name"), let filter = parseWhereClause() else {
            return nil
        }
        guard let comparison = CountComparison(token: current) else {
            report(.expected("'=', '>=', '<=', '>' or '<'", found: current),
                at: current.location)
            return nil
        }
        advance()
        let location = current.location
        return parseCount("a count", minimum: comparison.minimumCount).map {
            .count(
                scope, entity: entity, filter: filter, comparison: comparison,
                count: Located($0, at: location))
        }
    }

    /// `state NAME` or `state NAME(ARGUMENT)`.
    private mutating func parseState(device: Located<String>) -> ExpectationKind? {
        guard let state = name("a state such as 'idle'") else { return nil }
        var argument: Located<String>?
        if current.kind == .leftParenthesis {
            advance()
            guard let inner = name("a state detail such as 'quotaExceeded'"),
                expect(.rightParenthesis, "')'") != nil
            else { return nil }
            argument = inner
        }
        return .state(device: device, state: state, argument: argument)
    }
}
