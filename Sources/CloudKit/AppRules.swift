import CloudSim
import SyncContract

/// The weaknesses SyncLab's `CKSyncEngine` recognises in any app's delegate, as data.
/// docs/APP-RULES.md is its only source: `groupTitles` and `rules` are generated from the page
/// (AppRules+Generated.swift, `swift run catalogue-gen`).
public enum AppRules {
    /// The catalogue every app-owned profile carries.
    public static let catalogue = RuleCatalogue(groupTitles: groupTitles, rules: rules)

    /// An app's own catalogue with these rules after its groups (those that hold a rule); an
    /// app rule that reuses one of these IDs is kept in their place.
    public static func catalogue(adding own: RuleCatalogue) -> RuleCatalogue {
        let ownIDs = Set(own.rules.map(\.id))
        let ownTitles = own.groupTitles.filter { group in
            own.rules.contains { $0.group == group.group }
        }
        let titles = ownTitles
            + groupTitles.filter { group in !ownTitles.contains { $0.group == group.group } }
        return RuleCatalogue(
            groupTitles: titles, rules: own.rules + rules.filter { !ownIDs.contains($0.id) },
            enforcedAtInput: own.enforcedAtInput)
    }

    /// The rules the cloud's neutral notes show for an app on CKSyncEngine (docs/CLOUDSIM.md
    /// *Notes*): a save without a change tag that created a record another device had
    /// deleted is a first save sent again after its answer was lost (APPW-8).
    @Sendable public static func cloudNoteRules(_ note: CloudNote) -> [String] {
        note.kind == "record.created-over-tombstone" ? ["APPW-8"] : []
    }
}
