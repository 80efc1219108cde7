/// One engine's catalogue: the docs page that is its only source, and the Swift file the
/// generator derives from it.
public struct CatalogueSpec: Sendable, Hashable {
    /// A `## GROUP — title` section of the page whose rules are not the catalogue's own but
    /// a list of their own (the literal variant's rules of docs/NAIVE.md): they go into
    /// `property`, each in the group its ID names, and the section adds no group.
    public struct ExtraSection: Sendable, Hashable {
        public var heading: String
        public var property: String

        public init(heading: String, property: String) {
            self.heading = heading
            self.property = property
        }
    }

    /// The page, relative to the repository (`docs/RULES.md`).
    public var page: String
    /// The generated file, relative to the repository.
    public var output: String
    /// The hand-written type the generated file extends (`SDSRules`).
    public var typeName: String
    public var extraSections: [ExtraSection]

    public init(
        page: String, output: String, typeName: String, extraSections: [ExtraSection] = []
    ) {
        self.page = page
        self.output = output
        self.typeName = typeName
        self.extraSections = extraSections
    }

    /// The command that regenerates every catalogue, named in the generated files' header
    /// and in the message of the test that finds one stale.
    public static let command = "swift run catalogue-gen"

    /// Every catalogue SyncLab ships: each bundled engine's, and the one every app-owned
    /// engine carries (docs/APP-RULES.md).
    public static let bundled: [CatalogueSpec] = [
        CatalogueSpec(page: "docs/RULES.md", output: "Sources/SDS/SDSRules+Generated.swift",
                      typeName: "SDSRules"),
        CatalogueSpec(page: "docs/NAIVE.md", output: "Sources/Naive/NaiveRules+Generated.swift",
                      typeName: "NaiveRules",
                      extraSections: [ExtraSection(heading: "NAIVE-D", property: "literalRules")]),
        CatalogueSpec(page: "docs/OUTBOX.md", output: "Sources/Outbox/OutboxRules+Generated.swift",
                      typeName: "OutboxRules"),
        CatalogueSpec(page: "docs/HISTORY.md",
                      output: "Sources/History/HistoryRules+Generated.swift",
                      typeName: "HistoryRules"),
        CatalogueSpec(page: "docs/MIRROR.md", output: "Sources/Mirror/MirrorRules+Generated.swift",
                      typeName: "MirrorRules"),
        CatalogueSpec(page: "docs/APP-RULES.md",
                      output: "Sources/CloudKit/AppRules+Generated.swift", typeName: "AppRules"),
    ]
}
