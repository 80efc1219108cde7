/// Which share covers each record of one zone ([CKShare]; docs/CLOUDSIM.md *Sharing*), worked out
/// from the records alone: share records (`cloudkit.share`) and roots (records whose `share` names
/// a live share record).
///
/// A zone-wide share covers every record of the zone. A hierarchy share covers its share record,
/// its root and every record below the root through `parent`, down to (not into) the root of
/// another share; the root's own parent is ignored. The `alreadyShared` checks keep hierarchies
/// from nesting, so every record is covered by at most one share.
struct ShareStructure {
    /// Live share records by name.
    let shares: [String: CloudRecord]
    /// Root record name → the name of its share record.
    let shareOfRoot: [String: String]
    /// Share record name → its root's name (hierarchy shares only).
    let rootOfShare: [String: String]
    /// The zone-wide share record's name, when the zone has one.
    let zoneShare: String?
    private let records: [String: CloudRecord]
    /// Parent name → child names, sorted.
    private let children: [String: [String]]

    init(records: [String: CloudRecord]) {
        self.records = records
        var shares: [String: CloudRecord] = [:]
        var shareOfRoot: [String: String] = [:]
        var rootOfShare: [String: String] = [:]
        var children: [String: [String]] = [:]
        let names = records.keys.sorted()
        for name in names {
            guard let record = records[name], record.isShare else { continue }
            shares[name] = record
        }
        let zoneShare = shares[CloudRecord.zoneShareRecordName] == nil
            ? nil : CloudRecord.zoneShareRecordName
        for name in names {
            guard let record = records[name] else { continue }
            if let parent = record.parent { children[parent, default: []].append(name) }
            guard let share = record.share, share != CloudRecord.zoneShareRecordName,
                shares[share] != nil, rootOfShare[share] == nil
            else { continue }
            shareOfRoot[name] = share
            rootOfShare[share] = name
        }
        self.shares = shares
        self.shareOfRoot = shareOfRoot
        self.rootOfShare = rootOfShare
        self.zoneShare = zoneShare
        self.children = children
    }

    init(zone: ZoneState) {
        self.init(records: zone.records.recordsByName())
    }

    var isEmpty: Bool { shares.isEmpty }

    /// The names of the live share records, sorted.
    var shareNames: [String] { shares.keys.sorted() }

    /// The share covering a live record, or nil when it is not shared.
    func covering(_ name: String) -> String? {
        guard records[name] != nil else { return nil }
        if let zoneShare { return zoneShare }
        if shares[name] != nil { return name }
        if let share = shareOfRoot[name] { return share }
        return shareAbove(name)
    }

    /// The share of the nearest root above a record (from its parent up), ignoring the
    /// zone-wide share; nil when no ancestor is a root. Parent cycles end the walk.
    func shareAbove(_ name: String) -> String? {
        var visited: Set<String> = [name]
        var current = records[name]?.parent
        while let ancestor = current, let record = records[ancestor] {
            precondition(visited.count <= records.count, "the walk up visits each record once")
            // A cycle back to the record (or any record seen) has no root above it.
            guard visited.insert(ancestor).inserted else { return nil }
            if let share = shareOfRoot[ancestor] { return share }
            current = record.parent
        }
        return nil
    }

    /// Whether the root of a hierarchy share is below the record (through `parent`), or the
    /// record itself when `includingSelf`.
    func hasRoot(below name: String, includingSelf: Bool) -> Bool {
        if includingSelf && shareOfRoot[name] != nil { return true }
        var visited: Set<String> = [name]
        var queue = children[name] ?? []
        var index = 0
        while index < queue.count {
            precondition(index <= records.count, "the walk down visits each record once")
            let child = queue[index]
            index += 1
            guard visited.insert(child).inserted else { continue }
            if shareOfRoot[child] != nil { return true }
            queue += children[child] ?? []
        }
        return false
    }

    /// Every record a share covers (its share record included), sorted by name.
    func members(of share: String) -> [String] {
        guard shares[share] != nil else { return [] }
        if share == zoneShare { return records.keys.sorted() }
        guard let root = rootOfShare[share] else { return [share] }
        var members: Set<String> = [share, root]
        var queue = children[root] ?? []
        var index = 0
        while index < queue.count {
            precondition(index <= records.count, "the walk down visits each record once")
            let child = queue[index]
            index += 1
            guard shareOfRoot[child] == nil, members.insert(child).inserted else { continue }
            queue += children[child] ?? []
        }
        return members.sorted()
    }

    /// The participant entry of an account in a share, if it was ever invited.
    func participant(_ account: String, in share: String) -> ShareParticipant? {
        shares[share]?.participants.first { $0.account == account }
    }

    /// The live shares in which an account is an accepted participant (the owner is not
    /// counted: their zone is in their private database), sorted by share name.
    func acceptedShares(of account: String) -> [String] {
        shareNames.filter { share in
            guard let entry = participant(account, in: share) else { return false }
            return entry.role != .owner && entry.acceptanceStatus == .accepted
        }
    }

    /// What an account can see of the zone through its shared database: the records of every
    /// share it accepted, sorted by name.
    func visibleNames(for account: String) -> [String] {
        let accepted = acceptedShares(of: account)
        if accepted.count == 1, let only = accepted.first { return members(of: only) }
        var union: Set<String> = []
        for share in accepted { union.formUnion(members(of: share)) }
        return union.sorted()
    }

    /// The share as `ShareInfo`.
    func info(of share: String, zone: ZoneID) -> ShareInfo? {
        guard let record = shares[share] else { return nil }
        return ShareInfo(
            shareRecordName: share, zone: zone, rootRecordName: rootOfShare[share],
            participants: record.participants, publicPermission: record.publicPermission)
    }

    /// The share record of a target: the zone-wide share, or the share whose root is named.
    func shareName(of target: ShareTarget) -> String? {
        switch target {
        case .zone: return zoneShare
        case .rootRecord(let root): return shareOfRoot[root]
        }
    }
}
