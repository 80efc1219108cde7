/// One cloud action: its keyword and how to parse what follows it.
struct CloudActionRule: Sendable {
    let keyword: String
    let parse: @Sendable (inout Parser) -> CloudAction?

    init(_ keyword: String, parse: @escaping @Sendable (inout Parser) -> CloudAction?) {
        self.keyword = keyword
        self.parse = parse
    }
}

/// The cloud actions of the contract; new actions are new rows.
enum CloudActionTable {
    static let rules: [CloudActionRule] = [
        CloudActionRule("throttle") { $0.parseThrottle() },
        CloudActionRule("quota") { $0.parseQuota() },
        CloudActionRule("delete-zone") { $0.parseZoneFault(.deleteZone) },
        CloudActionRule("user-delete-zone") { $0.parseZoneFault(.userDeleteZone) },
        CloudActionRule("reset-encrypted-data") { $0.parseZoneFault(.resetEncryptedData) },
        CloudActionRule("expire-tokens") { parser in
            parser.name("an account name").map { .expireTokens(account: $0) }
        },
        CloudActionRule("fail-downloads") { parser in
            guard let account = parser.name("an account name"), parser.expectKeyword("for") else {
                return nil
            }
            return parser.parseDuration().map { .failDownloads(account: account, duration: $0) }
        },
        CloudActionRule("zone-busy") { parser in
            guard let account = parser.name("an account name"), parser.expectKeyword("for") else {
                return nil
            }
            return parser.parseDuration().map { .zoneBusy(account: account, duration: $0) }
        },
        CloudActionRule("outage") { parser in
            guard parser.expectKeyword("for") else { return nil }
            return parser.parseDuration().map { .outage(duration: $0) }
        },
        CloudActionRule("reject") { $0.parseReject() },
        CloudActionRule("accept") { parser in parser.label().map { .accept(label: $0) } },
        CloudActionRule("deploy-schema") { _ in .deploySchema },
        CloudActionRule("put-record") { $0.parsePutRecord() },
        CloudActionRule("fail-next-batch") { $0.parseFailNextBatch() },
        CloudActionRule("serve-old-version") { parser in
            guard let account = parser.name("an account name"), let label = parser.label() else {
                return nil
            }
            return .serveOldVersion(account: account, label: label)
        },
        CloudActionRule("environment") { parser in
            parser.parseCloudSettingValue("environment").map(CloudAction.setting)
        },
        CloudActionRule("latency") { parser in
            parser.parseCloudSettingValue("latency").map(CloudAction.setting)
        },
        CloudActionRule("push") { parser in
            parser.parseCloudSettingValue("push").map(CloudAction.setting)
        },
        CloudActionRule("missing-deletes") { parser in
            parser.parseCloudSettingValue("missing-deletes").map(CloudAction.setting)
        },
        CloudActionRule("child-saves") { parser in
            parser.parseCloudSettingValue("child-saves").map(CloudAction.setting)
        },
    ]

    static let keywords = rules.map(\.keyword)

    static func rule(for keyword: String) -> CloudActionRule? {
        rules.first { $0.keyword == keyword }
    }
}

/// The arguments of cloud actions.
extension Parser {
    /// `cloud: ACTION`; the current token is `cloud`, followed by `:`.
    mutating func parseCloudActionStatement() -> CloudActionStatement? {
        let keyword = advance()
        guard expect(.colon, "':'") != nil else { return nil }
        let word = current
        guard word.kind == .identifier, let rule = CloudActionTable.rule(for: word.text) else {
            let suggestions = Suggestions.closest(to: word.text, among: CloudActionTable.keywords)
            report(.unknownCloudAction(word, suggestions: suggestions), at: word.location)
            return nil
        }
        advance()
        guard let action = rule.parse(&self) else { return nil }
        return CloudActionStatement(action, location: keyword.location)
    }

    /// `throttle ACCOUNT for D` or `throttle ACCOUNT next-upload N records|deletes retry-after D`.
    fileprivate mutating func parseThrottle() -> CloudAction? {
        guard let account = name("an account name") else { return nil }
        if current.isKeyword("next-upload") {
            advance()
            let location = current.location
            guard let count = parseCount("a number of records", minimum: 1) else { return nil }
            // `N deletes` is a SyncLab addition (docs/FORMAT.md): the upload's deletes fail.
            let deletes = current.isKeyword("deletes")
            if deletes {
                advance()
            } else if !current.isKeyword("records") {
                let suggestions = Suggestions.closest(
                    to: current.text, among: ["records", "deletes"])
                report(.expected("'records' or 'deletes'", found: current,
                                 suggestions: suggestions),
                    at: current.location)
                return nil
            } else {
                advance()
            }
            guard expectKeyword("retry-after"), let retryAfter = parseDuration() else { return nil }
            if deletes {
                return .throttleNextDeletes(
                    account: account, deletes: Located(count, at: location), retryAfter: retryAfter)
            }
            return .throttleNextUpload(
                account: account, records: Located(count, at: location), retryAfter: retryAfter)
        }
        guard current.isKeyword("for") else {
            let suggestions = Suggestions.closest(to: current.text, among: ["for", "next-upload"])
            report(.expected("'for' or 'next-upload'", found: current, suggestions: suggestions),
                at: current.location)
            return nil
        }
        advance()
        return parseDuration().map { .throttle(account: account, duration: $0) }
    }

    /// `delete-zone | user-delete-zone | reset-encrypted-data ACCOUNT [collection LABEL | zone
    /// NAME]`. Without a zone, `delete-zone` and `user-delete-zone` keep their cases.
    fileprivate mutating func parseZoneFault(_ fault: ZoneFault) -> CloudAction? {
        guard let account = name("an account name") else { return nil }
        var selector: Located<ZoneSelector>?
        if current.isKeyword("collection") {
            advance()
            guard let label = label() else { return nil }
            selector = Located(.collection(label: label.value), at: label.location)
        } else if current.isKeyword("zone") {
            advance()
            let word = current
            guard word.kind == .identifier || word.kind == .string else {
                report(.expected("a zone name", found: word), at: word.location)
                return nil
            }
            advance()
            selector = Located(.zone(name: word.value), at: word.location)
        } else if !current.endsLine {
            let suggestions = Suggestions.closest(to: current.text, among: ["collection", "zone"])
            report(.expected("'collection', 'zone' or end of line", found: current,
                             suggestions: suggestions), at: current.location)
            return nil
        }
        switch (fault, selector) {
        case (.deleteZone, nil): return .deleteZone(account: account)
        case (.userDeleteZone, nil): return .userDeleteZone(account: account)
        default: return .zoneFault(fault, account: account, zone: selector)
        }
    }

    /// `quota ACCOUNT full|ok`.
    fileprivate mutating func parseQuota() -> CloudAction? {
        guard let account = name("an account name") else { return nil }
        let word = current
        guard word.isKeyword("full") || word.isKeyword("ok") else {
            let suggestions = Suggestions.closest(to: word.text, among: ["full", "ok"])
            report(.expected("'full' or 'ok'", found: word, suggestions: suggestions),
                at: word.location)
            return nil
        }
        advance()
        return .quota(account: account, full: word.text == "full")
    }

    /// `reject LABEL with ERRORCODE`.
    fileprivate mutating func parseReject() -> CloudAction? {
        guard let label = label(), expectKeyword("with") else { return nil }
        return parseErrorCode().map { .reject(label: label, error: $0) }
    }

    /// `fail-next-batch ACCOUNT [with ERRORCODE]`.
    fileprivate mutating func parseFailNextBatch() -> CloudAction? {
        guard let account = name("an account name") else { return nil }
        guard current.isKeyword("with") else {
            return .failNextBatch(account: account, firstItem: nil)
        }
        advance()
        return parseErrorCode().map { .failNextBatch(account: account, firstItem: $0) }
    }

    /// A `CKError.Code` name.
    private mutating func parseErrorCode() -> Located<CloudKitErrorCode>? {
        let word = current
        guard word.kind == .identifier, let code = CloudKitErrorCode(rawValue: word.text) else {
            let names = CloudKitErrorCode.allCases.map(\.rawValue)
            let suggestions = Suggestions.closest(to: word.text, among: names)
            report(.unknownErrorCode(word, suggestions: suggestions), at: word.location)
            return nil
        }
        advance()
        return Located(code, at: word.location)
    }
}
