import CloudSim
import Foundation

/// A zone of a database-changes page not handed to the app yet: a call's `resultsLimit` below
/// the server's page leaves the rest in the token it returns.
struct PendingZoneChange: Hashable, Sendable {
    var zone: ZoneID
    /// Nil for a changed zone; why it went away for a deleted one.
    var deletion: ZoneDeletionReason?

    /// The entries held back, then a new page's: a held-back change of a zone the page
    /// reports again gives way (the page is newer), a held-back deletion stays unless the
    /// page deletes the zone too, so every deletion still comes before the zone's change.
    static func merging(_ held: [Self], _ page: [Self]) -> [Self] {
        let changed = Set(page.map(\.zone))
        let deleted = Set(page.filter { $0.deletion != nil }.map(\.zone))
        let kept = held.filter { entry in
            entry.deletion == nil ? !changed.contains(entry.zone) : !deleted.contains(entry.zone)
        }
        return kept + page
    }

    /// Archived as three parallel string arrays under the token's keys.
    static func encode(_ entries: [Self], with coder: NSCoder) {
        guard !entries.isEmpty else { return }
        coder.encode(entries.map(\.zone.owner) as NSArray, forKey: "pendingOwners")
        coder.encode(entries.map(\.zone.name) as NSArray, forKey: "pendingNames")
        coder.encode(entries.map { $0.deletion?.rawValue ?? "" } as NSArray,
            forKey: "pendingDeletions")
    }

    static func decode(from coder: NSCoder) -> [Self] {
        // A token without held-back zones has no keys for them.
        guard coder.containsValue(forKey: "pendingOwners") else { return [] }
        let classes = [NSArray.self, NSString.self]
        guard let owners = coder.decodeObject(of: classes, forKey: "pendingOwners") as? [String],
              let names = coder.decodeObject(of: classes, forKey: "pendingNames") as? [String],
              let deletions = coder.decodeObject(of: classes,
                  forKey: "pendingDeletions") as? [String],
              owners.count == names.count, names.count == deletions.count else { return [] }
        return owners.indices.map { index in
            Self(zone: ZoneID(owner: owners[index], name: names[index]),
                deletion: ZoneDeletionReason(rawValue: deletions[index]))
        }
    }
}
