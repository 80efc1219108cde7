import SyncContract

/// The catalogue of the `outbox` engine as data: docs/OUTBOX.md as prose, the same rules
/// word for word (a test checks it). IDs are permanent: add new rules at the end of a group.
public enum OutboxRules {
    static let groupTitles: [(group: String, title: String)] = [
        ("OBX", "what the engine does"),
        ("OBXW", "the weaknesses (races and losses the engine does not resolve)"),
        ("OBX-DR", "discovered races (found by the explorer, not in the catalogue)"),
    ]

    public static let catalogue = RuleCatalogue(groupTitles: groupTitles, rules: rules)

    static let rules: [Rule] = OutboxCatalogueText.rules
}
