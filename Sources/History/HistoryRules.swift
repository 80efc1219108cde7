import SyncContract

/// The catalogue of the `history` engine as data. docs/HISTORY.md is its only source:
/// `groupTitles` and `rules` are generated from the page (HistoryRules+Generated.swift,
/// `swift run catalogue-gen`). IDs are permanent: add new rules at the end of a group.
public enum HistoryRules {
    /// The catalogue as the profile carries it.
    public static let catalogue = RuleCatalogue(groupTitles: groupTitles, rules: rules)
}
