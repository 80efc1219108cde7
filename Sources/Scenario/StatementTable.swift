/// One top-level statement: its keyword, whether it belongs to the setup, how to parse it.
///
/// New statements are added as rows here; the dispatcher, the unknown-statement suggestions
/// and the setup-before-timeline check all follow the table.
struct StatementRule: Sendable {
    let keyword: String
    /// Setup statements (header, schema, accounts, devices, cloud) precede the timeline.
    let isSetup: Bool
    /// Parses the rest of the line after the keyword; false when it reported an error.
    let parse: @Sendable (inout Parser, Token) -> Bool
    /// Whether the keyword is a reserved name. Keywords added after the contract are not, so
    /// that a file naming a device `budget` keeps its meaning.
    let reservesName: Bool

    init(
        _ keyword: String, setup: Bool, reservesName: Bool = true,
        parse: @escaping @Sendable (inout Parser, Token) -> Bool
    ) {
        self.keyword = keyword
        self.isSetup = setup
        self.reservesName = reservesName
        self.parse = parse
    }
}

/// The statements a line may start with (besides `DEVICE:` and `cloud:` actions).
enum StatementTable {
    static let rules: [StatementRule] = [
        StatementRule("scenario", setup: true) { $0.parseTitle($1) },
        StatementRule("about", setup: true) { $0.parseAbout($1) },
        StatementRule("seed", setup: true) { $0.parseSeed($1) },
        StatementRule("engine", setup: true) { $0.parseEngine($1) },
        StatementRule("engines", setup: true, reservesName: false) { $0.parseEngines($1) },
        StatementRule("entity", setup: true) { $0.parseEntity($1) },
        StatementRule("account", setup: true) { $0.parseAccount($1) },
        StatementRule("device", setup: true) { $0.parseDevice($1) },
        StatementRule("cloud", setup: true) { $0.parseCloudSetting($1) },
        StatementRule("chaos", setup: true) { $0.parseChaos($1) },
        StatementRule("budget", setup: true, reservesName: false) { $0.parseBudget($1) },
        StatementRule("wait", setup: false) { $0.parseWait($1) },
        StatementRule("settle", setup: false) { $0.parseSettle($1) },
        StatementRule("at", setup: false) { $0.parseAt($1) },
        StatementRule("when", setup: false) { $0.parseTrigger($1) },
        StatementRule("expect", setup: false) { $0.parseExpectation($1) },
    ]

    static let keywords = rules.map(\.keyword)

    static func rule(for keyword: String) -> StatementRule? {
        rules.first { $0.keyword == keyword }
    }

    /// Words that cannot name a device, account or label because a line could misread them.
    static let reservedNames = rules.filter(\.reservesName).map(\.keyword) + [
        "no", "not", "count", "state", "pending", "fired", "converged", "downloaded-once",
        "refused",
        "true", "false", "nil", "where",
    ]
}
