import SyncContract

/// The catalogue of the `naive` engine as data. docs/NAIVE.md is its only source:
/// `groupTitles`, `rules` and `literalRules` are generated from the page
/// (NaiveRules+Generated.swift, `swift run catalogue-gen`). IDs are permanent: add new rules
/// at the end of a group.
public enum NaiveRules {
    /// The catalogue as the profile carries it.
    public static let catalogue = RuleCatalogue(groupTitles: groupTitles, rules: rules)

    /// The rules of `naive` the literal code shares (the others are completions).
    static let sharedWithLiteral = ["NAIVE-1", "NAIVE-3", "NAIVE-5", "NAIVE-6", "NAIVE-7",
        "NAIVE-14"]

    /// The catalogue of `naive-literal`: the shared rules, then its own (the page's NAIVE-D
    /// section, NAIVE-15..18).
    public static let literalCatalogue = RuleCatalogue(
        groupTitles: [("NAIVE", "what the literal code does")],
        rules: rules.filter { sharedWithLiteral.contains($0.id) } + literalRules)
}
