/// One device action: its keyword and how to parse what follows it.
struct DeviceActionRule: Sendable {
    let keyword: String
    let parse: @Sendable (inout Parser) -> DeviceAction?

    init(_ keyword: String, parse: @escaping @Sendable (inout Parser) -> DeviceAction?) {
        self.keyword = keyword
        self.parse = parse
    }

    /// An action that takes no arguments.
    init(_ keyword: String, _ action: DeviceAction) {
        self.init(keyword) { _ in action }
    }
}

/// The device actions of the contract; new actions are new rows.
enum DeviceActionTable {
    static let rules: [DeviceActionRule] = [
        DeviceActionRule("insert") { $0.parseInsert() },
        DeviceActionRule("update") { $0.parseUpdate() },
        DeviceActionRule("delete") { parser in parser.label().map { .delete(label: $0) } },
        DeviceActionRule("begin", .begin),
        DeviceActionRule("save", .save),
        DeviceActionRule("rollback", .rollback),
        DeviceActionRule("batch-delete") { $0.parseBatchDelete() },
        DeviceActionRule("sync", .sync),
        DeviceActionRule("autosync") { $0.parseAutosync() },
        DeviceActionRule("offline", .offline),
        DeviceActionRule("online", .online),
        DeviceActionRule("kill", .kill),
        DeviceActionRule("launch", .launch),
        DeviceActionRule("stop", .stop),
        DeviceActionRule("start", .start),
        DeviceActionRule("reset-sync-data") { $0.parseResetSyncData() },
        DeviceActionRule("initialize-schema", .initializeSchema),
        DeviceActionRule("sign-out", .signOut),
        DeviceActionRule("sign-in") { parser in
            parser.name("an account name").map { .signIn(account: $0) }
        },
        DeviceActionRule("account-unavailable", .accountUnavailable),
        DeviceActionRule("account-available", .accountAvailable),
        DeviceActionRule("account-status") { $0.parseAccountStatus() },
        DeviceActionRule("lose-store", .loseStore),
        DeviceActionRule("rebuild-store", .rebuildStore),
        DeviceActionRule("disk-full", .diskFull(true)),
        DeviceActionRule("disk-ok", .diskFull(false)),
        DeviceActionRule("observe") { $0.parseObserve() },
        DeviceActionRule("upgrade") { $0.parseUpgrade() },
        DeviceActionRule("share") { $0.parseShare() },
        DeviceActionRule("accept") { parser in
            guard parser.expectKeyword("share") else { return nil }
            return parser.label().map { .acceptShare(label: $0) }
        },
        DeviceActionRule("unshare") { parser in parser.label().map { .unshare(label: $0) } },
        DeviceActionRule("remove") { $0.parseRemoveParticipant() },
        DeviceActionRule("leave") { parser in
            guard parser.expectKeyword("share") else { return nil }
            return parser.label().map { .leaveShare(label: $0) }
        },
    ]

    static let keywords = rules.map(\.keyword)

    static func rule(for keyword: String) -> DeviceActionRule? {
        rules.first { $0.keyword == keyword }
    }
}

/// The arguments of device actions.
extension Parser {
    /// `DEVICE: ACTION [&]`; the current token is the device name, followed by `:`.
    mutating func parseDeviceActionStatement() -> DeviceActionStatement? {
        guard let device = name("a device name"), expect(.colon, "':'") != nil else { return nil }
        let word = current
        guard word.kind == .identifier, let rule = DeviceActionTable.rule(for: word.text) else {
            let suggestions = Suggestions.closest(to: word.text, among: DeviceActionTable.keywords)
            report(.unknownDeviceAction(word, suggestions: suggestions), at: word.location)
            return nil
        }
        advance()
        guard let action = rule.parse(&self) else { return nil }
        var runsInBackground = false
        if current.kind == .ampersand {
            let ampersand = advance()
            if action.waits {
                runsInBackground = true
            } else {
                report(.backgroundNotAllowed(word.text), at: ampersand.location)
            }
        }
        return DeviceActionStatement(
            device: device, action: action, runsInBackground: runsInBackground,
            location: device.location)
    }

    mutating func label() -> Located<String>? {
        name("a label")
    }

    fileprivate mutating func parseInsert() -> DeviceAction? {
        guard let entity = name("an entity name"), let label = declaredName("a label"),
            let values = parseAssignments()
        else { return nil }
        return .insert(entity: entity, label: label, values: values)
    }

    fileprivate mutating func parseUpdate() -> DeviceAction? {
        guard let label = label(), let values = parseAssignments() else { return nil }
        guard !values.isEmpty else {
            report(.expected("'key=value'", found: current), at: current.location)
            return nil
        }
        return .update(label: label, values: values)
    }

    fileprivate mutating func parseBatchDelete() -> DeviceAction? {
        guard let entity = name("an entity name") else { return nil }
        guard let filter = parseWhereClause() else { return nil }
        return .batchDelete(entity: entity, filter: filter)
    }

    /// `[where key=value ...]`: empty when there is no `where`.
    mutating func parseWhereClause() -> [Assignment]? {
        guard current.isKeyword("where") else { return [] }
        advance()
        guard let filter = parseAssignments() else { return nil }
        guard !filter.isEmpty else {
            report(.expected("'key=value'", found: current), at: current.location)
            return nil
        }
        return filter
    }

    fileprivate mutating func parseAutosync() -> DeviceAction? {
        parseOnOff().map { .autosync($0) }
    }

    /// `observe on|off` (a SyncLab addition: saves while nothing observes the store).
    fileprivate mutating func parseObserve() -> DeviceAction? {
        parseOnOff().map { .observe($0) }
    }

    /// `account-status STATUS`: one of `AccountStatusSetting`'s names, with a suggestion.
    fileprivate mutating func parseAccountStatus() -> DeviceAction? {
        let word = current
        if word.kind == .identifier, let status = AccountStatusSetting(rawValue: word.text) {
            advance()
            return .accountStatus(Located(status, at: word.location))
        }
        let names = AccountStatusSetting.allCases.map(\.rawValue)
        let listed = names.dropLast().map { "'\($0)'" }.joined(separator: ", ")
            + " or '\(names[names.count - 1])'"
        let suggestions = Suggestions.closest(to: word.text, among: names)
        report(.expected(listed, found: word, suggestions: suggestions), at: word.location)
        return nil
    }

    /// `on` (true) or `off` (false), with a suggestion for anything else.
    private mutating func parseOnOff() -> Bool? {
        let word = current
        if word.isKeyword("on") || word.isKeyword("off") {
            advance()
            return word.text == "on"
        }
        let suggestions = Suggestions.closest(to: word.text, among: ["on", "off"])
        report(.expected("'on' or 'off'", found: word, suggestions: suggestions),
            at: word.location)
        return nil
    }

    /// `upgrade [syncs all | syncs ENTITY(key, …) …] [identity ENTITY(a, …)]…`.
    fileprivate mutating func parseUpgrade() -> DeviceAction? {
        var version = AppVersion()
        var sawClause = false
        while !current.endsLine && current.kind != .ampersand {
            let clause = current
            if clause.isKeyword("syncs") {
                advance()
                if current.isKeyword("all") {
                    advance()
                    version.syncs = nil
                } else {
                    guard let items = parseSyncSelections(stopAt: ["identity"]) else { return nil }
                    version.syncs = items
                }
            } else if clause.isKeyword("identity") {
                advance()
                guard let entity = name("an entity name"),
                      let keys = parseNameList("an attribute name") else { return nil }
                version.identities.append(SyncSelection(entity: entity, keys: keys))
            } else {
                let suggestions = Suggestions.closest(to: clause.text, among: ["syncs", "identity"])
                report(.expected("'syncs' or 'identity'", found: clause, suggestions: suggestions),
                    at: clause.location)
                return nil
            }
            sawClause = true
        }
        guard sawClause else {
            report(.expected("'syncs' or 'identity'", found: current), at: current.location)
            return nil
        }
        return .upgrade(version)
    }

    fileprivate mutating func parseResetSyncData() -> DeviceAction? {
        guard current.isKeyword("then") else { return .resetSyncData(thenDeleteAll: false) }
        advance()
        guard expectKeyword("delete-all") else { return nil }
        return .resetSyncData(thenDeleteAll: true)
    }

    /// `share LABEL with ACCOUNT read-write|read-only [administrator]`, or
    /// `share LABEL public none|read-only|read-write`.
    fileprivate mutating func parseShare() -> DeviceAction? {
        guard let label = label() else { return nil }
        if current.isKeyword("public") {
            advance()
            return parseSharePublic(label)
        }
        guard expectKeyword("with"), let account = name("an account name") else { return nil }
        let word = current
        guard word.kind == .identifier, let permission = SharePermission(rawValue: word.text) else {
            let names = SharePermission.allCases.map(\.rawValue)
            let suggestions = Suggestions.closest(to: word.text, among: names)
            report(.expected("'read-write' or 'read-only'", found: word, suggestions: suggestions),
                at: word.location)
            return nil
        }
        advance()
        let administrator = current.isKeyword("administrator")
        if administrator { advance() }
        return .share(
            label: label, account: account, permission: permission, administrator: administrator)
    }

    /// The permission after `share LABEL public`.
    private mutating func parseSharePublic(_ label: Located<String>) -> DeviceAction? {
        let word = current
        guard word.kind == .identifier,
            let permission = PublicPermissionSetting(rawValue: word.text)
        else {
            let names = PublicPermissionSetting.allCases.map(\.rawValue)
            let suggestions = Suggestions.closest(to: word.text, among: names)
            report(
                .expected("'none', 'read-only' or 'read-write'", found: word,
                    suggestions: suggestions),
                at: word.location)
            return nil
        }
        advance()
        return .sharePublic(label: label, permission: Located(permission, at: word.location))
    }

    /// `remove ACCOUNT from LABEL`.
    fileprivate mutating func parseRemoveParticipant() -> DeviceAction? {
        guard let account = name("an account name"), expectKeyword("from"), let label = label()
        else { return nil }
        return .removeParticipant(account: account, label: label)
    }
}
