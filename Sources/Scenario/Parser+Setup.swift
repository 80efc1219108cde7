/// Header, account, device and cloud-setting statements.
extension Parser {
    /// Reports a second occurrence of a statement that may appear once.
    mutating func reportDuplicate(_ keyword: Token, firstAt first: SourceLocation) {
        let note = DiagnosticNote(location: first, message: "first '\(keyword.text)' is here")
        report(.duplicateStatement(keyword.text), at: keyword.location, notes: [note])
    }

    mutating func parseTitle(_ keyword: Token) -> Bool {
        guard let text = expect(.string, "a title in quotes") else { return false }
        if let first = scenario.header.title {
            reportDuplicate(keyword, firstAt: first.location)
        } else {
            scenario.header.title = Located(text.value, at: text.location)
        }
        return true
    }

    mutating func parseAbout(_ keyword: Token) -> Bool {
        guard let text = expect(.string, "a text in quotes") else { return false }
        scenario.header.about.append(Located(text.value, at: text.location))
        return true
    }

    mutating func parseSeed(_ keyword: Token) -> Bool {
        let token = current
        guard token.kind == .number else {
            report(.expected("a seed number", found: token), at: token.location)
            return false
        }
        advance()
        let number = NumberText(token.text)
        guard !number.isNegative, !number.hasFraction, number.suffix.isEmpty,
            let value = NumberText.parseDigits(number.wholeDigits)
        else {
            report(.invalidSeed(token.text), at: token.location)
            return false
        }
        if let first = scenario.header.seed {
            reportDuplicate(keyword, firstAt: first.location)
        } else {
            scenario.header.seed = Located(value, at: token.location)
        }
        return true
    }

    mutating func parseEngine(_ keyword: Token) -> Bool {
        guard let engine = name("an engine name") else { return false }
        if let first = scenario.header.engine {
            reportDuplicate(keyword, firstAt: first.location)
        } else {
            scenario.header.engine = engine
        }
        return true
    }

    /// `engines A, B, …`: the engines a story runs on (a SyncLab addition).
    mutating func parseEngines(_ keyword: Token) -> Bool {
        var names: [Located<String>] = []
        guard let first = name("an engine name") else { return false }
        names.append(first)
        while current.kind == .comma {
            advance()
            guard let next = name("an engine name") else { return false }
            names.append(next)
        }
        if let first = scenario.header.enginesLocation {
            reportDuplicate(keyword, firstAt: first)
        } else {
            scenario.header.engines = names
            scenario.header.enginesLocation = keyword.location
        }
        return true
    }

    mutating func parseAccount(_ keyword: Token) -> Bool {
        guard let account = declaredName("an account name") else { return false }
        scenario.accounts.append(AccountDeclaration(name: account, location: keyword.location))
        return true
    }

    /// `device NAME [on ACCOUNT] [latency D]`, clauses in any order, each at most once.
    mutating func parseDevice(_ keyword: Token) -> Bool {
        guard let device = declaredName("a device name") else { return false }
        if device.value == "cloud" {
            report(.reservedName(device.value, role: "a device"), at: device.location)
        }
        var declaration = DeviceDeclaration(name: device, location: keyword.location)
        var seen: [String] = []
        while !current.endsLine {
            let clause = current
            let clauses = ["on", "latency", "extension", "syncs"]
            guard clauses.contains(where: { clause.isKeyword($0) }) else {
                let suggestions = Suggestions.closest(to: clause.text, among: clauses)
                report(.unexpectedToken(clause, suggestions: suggestions), at: clause.location)
                return false
            }
            advance()
            if seen.contains(clause.text) {
                report(.duplicateClause(clause.text), at: clause.location)
            }
            seen.append(clause.text)
            if clause.text == "on" {
                guard let account = name("an account name") else { return false }
                declaration.account = account
            } else if clause.text == "extension" {
                guard expectKeyword("of"), let host = name("a device name") else { return false }
                declaration.extensionOf = host
            } else if clause.text == "syncs" {
                guard let selection = parseSyncSelections(
                    stopAt: ["on", "latency", "extension"]) else {
                    return false
                }
                declaration.syncs = selection
            } else {
                let location = current.location
                guard let latency = parseDurationSpecification() else { return false }
                declaration.latency = Located(latency, at: location)
            }
        }
        scenario.devices.append(declaration)
        return true
    }

    /// A name being declared: an identifier that no statement keyword could be confused with.
    mutating func declaredName(_ what: String) -> Located<String>? {
        guard let declared = name(what) else { return nil }
        if StatementTable.reservedNames.contains(declared.value) {
            report(.reservedName(declared.value, role: what), at: declared.location)
        }
        return declared
    }

    /// `cloud SETTING` in the setup.
    mutating func parseCloudSetting(_ keyword: Token) -> Bool {
        guard let setting = parseCloudSettingKind(inTimeline: false) else { return false }
        scenario.cloudSettings.append(CloudSetting(kind: setting, location: keyword.location))
        return true
    }

    /// `latency D`, `push latency D`, `push drop P%`, `page-size N`, `environment E`,
    /// `missing-deletes M`, `child-saves C`.
    mutating func parseCloudSettingKind(inTimeline: Bool) -> CloudSettingKind? {
        let word = current
        let settings = inTimeline
            ? ["latency", "push", "environment", "missing-deletes", "child-saves"]
            : ["latency", "push", "page-size", "environment", "missing-deletes", "child-saves"]
        guard word.kind == .identifier, settings.contains(word.text) else {
            let suggestions = Suggestions.closest(to: word.text, among: settings)
            report(.unknownCloudSetting(word, suggestions: suggestions), at: word.location)
            return nil
        }
        advance()
        return parseCloudSettingValue(word.text)
    }

    /// The rest of a cloud setting after its first word.
    mutating func parseCloudSettingValue(_ setting: String) -> CloudSettingKind? {
        switch setting {
        case "latency":
            return parseDurationSpecification().map(CloudSettingKind.latency)
        case "push":
            return parsePushSetting()
        case "page-size":
            return parseCount("a page size", minimum: 1).map(CloudSettingKind.pageSize)
        case "missing-deletes":
            return parseMissingDeletes().map(CloudSettingKind.missingDeletes)
        case "child-saves":
            return parseSettingWord(expected: "'leave-parent' or 'touch-parent'")
                .map(CloudSettingKind.childSaves)
        default:
            return parseEnvironment().map(CloudSettingKind.environment)
        }
    }

    private mutating func parsePushSetting() -> CloudSettingKind? {
        let word = current
        if word.isKeyword("latency") {
            advance()
            return parseDurationSpecification().map(CloudSettingKind.pushLatency)
        }
        if word.isKeyword("drop") {
            advance()
            return parsePercentage().map(CloudSettingKind.pushDrop)
        }
        let suggestions = Suggestions.closest(to: word.text, among: ["latency", "drop"])
        report(.expected("'latency' or 'drop'", found: word, suggestions: suggestions),
            at: word.location)
        return nil
    }

    mutating func parseEnvironment() -> CloudEnvironment? {
        parseSettingWord(expected: "'development' or 'production'")
    }

    /// `succeed` or `unknown-item` after `missing-deletes`.
    mutating func parseMissingDeletes() -> MissingDeletes? {
        parseSettingWord(expected: "'succeed' or 'unknown-item'")
    }

    /// One of a setting's words (its raw values), or an `expected` error suggesting the
    /// closest word.
    private mutating func parseSettingWord<Value: RawRepresentable & CaseIterable>(
        expected: String
    ) -> Value? where Value.RawValue == String {
        let word = current
        if word.kind == .identifier, let value = Value(rawValue: word.text) {
            advance()
            return value
        }
        let names = Value.allCases.map(\.rawValue)
        let suggestions = Suggestions.closest(to: word.text, among: names)
        report(.expected(expected, found: word, suggestions: suggestions), at: word.location)
        return nil
    }

    /// `ENTITY [(key, …)] …` up to the end of the line or one of `stopAt`.
    mutating func parseSyncSelections(stopAt: [String]) -> [SyncSelection]? {
        var items: [SyncSelection] = []
        while !current.endsLine && !stopAt.contains(where: { current.isKeyword($0) }) {
            guard let entity = name("an entity name") else { return nil }
            var item = SyncSelection(entity: entity)
            if current.kind == .leftParenthesis {
                guard let keys = parseNameList("a property name") else { return nil }
                item.keys = keys
            }
            items.append(item)
            if current.kind == .comma { advance() }
        }
        guard !items.isEmpty else {
            report(.expected("an entity name", found: current), at: current.location)
            return nil
        }
        return items
    }
}
