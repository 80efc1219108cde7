import SyncContract

/// The project's own copy of the rule catalogue of the primary engine, as data.
///
/// docs/RULES.md is its only source: `groupTitles` and `rules` are generated from the page
/// (SDSRules+Generated.swift, `swift run catalogue-gen`), in the page's order, which is the
/// order every listing uses. IDs are permanent: add new rules at the end of a group.
public enum SDSRules {
    /// Configuration rules the scenario validator enforces when a file is read; no run can
    /// make them fire, so `synclab rules --check` does not ask a scenario for them.
    static let enforcedAtInput: Set<String> = ["CFG-2", "ID-6"]

    /// The catalogue as the profile carries it.
    public static let catalogue = RuleCatalogue(
        groupTitles: groupTitles, rules: rules, enforcedAtInput: enforcedAtInput)
}
