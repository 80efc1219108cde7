import SyncContract

/// The catalogue of the `outbox` engine as data. docs/OUTBOX.md is its only source:
/// `groupTitles` and `rules` are generated from the page (OutboxRules+Generated.swift,
/// `swift run catalogue-gen`). IDs are permanent: add new rules at the end of a group.
public enum OutboxRules {
    /// The catalogue as the profile carries it.
    public static let catalogue = RuleCatalogue(groupTitles: groupTitles, rules: rules)
}
