import SyncContract

/// The weaknesses SyncLab's `CKSyncEngine` recognises in any app's delegate, as data.
/// docs/APP-RULES.md is its only source: `groupTitles` and `rules` are generated from the page
/// (AppRules+Generated.swift, `swift run catalogue-gen`).
public enum AppRules {
    /// The catalogue every app-owned profile carries.
    public static let catalogue = RuleCatalogue(groupTitles: groupTitles, rules: rules)

    /// An app's own catalogue with these rules after its groups; an app group that reuses
    /// one of these IDs keeps its own rule.
    public static func catalogue(adding own: RuleCatalogue) -> RuleCatalogue {
        let ownIDs = Set(own.rules.map(\.id))
        let titles = own.groupTitles
            + groupTitles.filter { group in !own.groupTitles.contains { $0.group == group.group } }
        return RuleCatalogue(
            groupTitles: titles, rules: own.rules + rules.filter { !ownIDs.contains($0.id) },
            enforcedAtInput: own.enforcedAtInput)
    }
}
