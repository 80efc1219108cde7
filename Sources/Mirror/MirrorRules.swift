import SyncContract

/// The catalogue of the `mirror` engine as data. docs/MIRROR.md is its only source:
/// `groupTitles` and `rules` are generated from the page (MirrorRules+Generated.swift,
/// `swift run catalogue-gen`). IDs are permanent: add new rules at the end of a group.
public enum MirrorRules {
    /// The catalogue as the profile carries it.
    public static let catalogue = RuleCatalogue(groupTitles: groupTitles, rules: rules)
}
