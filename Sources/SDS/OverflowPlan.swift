import CloudSim
import SyncContract

/// Where the changed values of one upload go: their own fields, or the overflow asset
/// (BIG-2, BIG-4), decided against the record as iCloud holds it (or as this device last saw
/// it).
///
/// Only changed values move (BIG-3: unchanged values stay where they are):
/// 1. a changed text or data value of 256 KB (262,144 bytes) or more goes into the asset;
/// 2. while the record would still hold more than 1 MB (1,048,576 bytes, counted as CloudKit
///    counts: every field's key and value, assets as their key only), the largest remaining
///    changed text or data value goes into the asset (equal sizes: the first key in order);
/// 3. every other changed value goes into its own field, and leaves the asset if it was
///    there (BIG-4).
///
/// Identity values never move (BIG-5), nor do references, numbers, dates or asset
/// properties (BIG-1).
struct OverflowPlan: Hashable, Sendable {
    /// Why a value went into the asset.
    enum Reason: String, Hashable, Sendable {
        case large = "256 KB or more"
        case doesNotFit = "does not fit next to the others"
    }

    /// A changed value that goes into the asset.
    struct Move: Hashable, Sendable {
        var key: String
        var reason: Reason
    }

    /// The record's limit, not counting assets (BIG-1).
    static let recordLimit = 1_048_576
    /// A single text or data value this large always goes into the asset (BIG-2).
    static let largeValue = 262_144

    /// Changed values that go into the asset, in the order chosen.
    var movedIn: [Move] = []
    /// Changed keys the asset held that leave it: back in their field, or cleared (BIG-4).
    var movedOut: [String] = []
    /// Identity values of 256 KB or more that stay in their field (BIG-5).
    var identityKept: [String] = []
    /// The record's size after the upload, not counting assets.
    var recordSize = 0
    /// Whether the record ends up with the overflow field.
    var hasAsset = false

    /// Whether the upload writes the overflow asset, so it must be merged into the record in
    /// iCloud first (BIG-3).
    var involvesAsset: Bool { !movedIn.isEmpty || !movedOut.isEmpty }
    /// The record stays above 1 MB: iCloud will reject it (BIG-1).
    var isTooLarge: Bool { recordSize > Self.recordLimit }
    var movedInKeys: [String] { movedIn.map(\.key) }

    /// Plans an upload.
    /// - Parameters:
    ///   - fields: the record's fields before the upload, without `SDSOverflow`.
    ///   - assetKeys: the keys its overflow asset holds before the upload.
    ///   - hadAsset: whether it has the overflow field (it keeps it: BIG-5).
    ///   - changed: the changed keys and their field values (nil: cleared), as the upload
    ///     would send them without an asset.
    ///   - movable: keys whose values may go into the asset (texts and data that are not
    ///     identity values or asset properties).
    ///   - identity: the entity's identity keys.
    static func make(
        fields: [String: CloudValue],
        assetKeys: Set<String>,
        hadAsset: Bool,
        changed: [String: CloudValue],
        changedKeys: [String],
        movable: Set<String>,
        identity: Set<String>
    ) -> OverflowPlan {
        var plan = OverflowPlan()
        var after = fields
        var inAsset = assetKeys
        var candidates: [String] = []
        for key in changedKeys.sorted() {
            after[key] = changed[key]
            inAsset.remove(key)
            guard let value = changed[key] else { continue }
            let size = value.recordSizeBytes
            if identity.contains(key) && size >= largeValue {
                plan.identityKept.append(key)
            } else if movable.contains(key) && size >= largeValue {
                plan.movedIn.append(Move(key: key, reason: .large))
                after[key] = nil
            } else if movable.contains(key) {
                candidates.append(key)
            }
        }
        func assetExists() -> Bool { hadAsset || !inAsset.isEmpty || !plan.movedIn.isEmpty }
        func size() -> Int {
            let overflow = assetExists() ? SDSEngine.overflowField.utf8.count : 0
            // Summed in any order (integers): sorting the keys for it cost more than the sum.
            var total = overflow
            for (key, value) in after { // tidy: ordered summed, order cannot matter
                total += key.utf8.count + value.recordSizeBytes
            }
            return total
        }
        while size() > recordLimit {
            let largest = candidates.max { lhs, rhs in
                let left = after[lhs]?.recordSizeBytes ?? 0
                let right = after[rhs]?.recordSizeBytes ?? 0
                return left == right ? lhs > rhs : left < right
            }
            guard let key = largest else { break }
            candidates.removeAll { $0 == key }
            plan.movedIn.append(Move(key: key, reason: .doesNotFit))
            after[key] = nil
        }
        let moved = Set(plan.movedInKeys)
        plan.movedOut = changedKeys.sorted().filter {
            assetKeys.contains($0) && !moved.contains($0)
        }
        plan.recordSize = size()
        plan.hasAsset = assetExists()
        return plan
    }
}
