import Kernel

/// Everything the cloud keeps per account apart from zone contents: the database feed,
/// subscriptions, token epoch and the faults scripted against the account.
struct AccountState {
    let name: String
    /// `_` + 32 hex digits derived from the account name (stable across runs and processes).
    let userRecordName: String
    /// Tokens carry the epoch they were handed out in; `expire-tokens` starts a new one.
    var tokenEpoch: Int64 = 1
    /// Last sequence number of the private database feed.
    var databaseSequence: Int64 = 0
    /// Per zone of the private database: when it last changed and when it was last deleted.
    /// A sorted map, not a dictionary: an account has a few zones, and finding one by
    /// comparing costs less than hashing its two names on every stored change.
    var zoneFeed: SortedMap<ZoneID, ZoneFeedEntry> = [:]
    /// The devices a database push reaches, per scope, each list sorted and without
    /// repeats: a push reads its list as it is, with no set to filter and sort, and finds the
    /// scope by comparing, not hashing. Always `engineSubscribers` merged with
    /// `registeredDevices` while the scope holds a named database subscription.
    var subscribers: SortedMap<DatabaseScope, [String]> = [:]
    /// Devices that saved the engines' unnamed database subscription, per scope, sorted.
    var engineSubscribers: SortedMap<DatabaseScope, [String]> = [:]
    /// Devices that saved or fetched a subscription of the account, per scope, sorted: they
    /// registered for its pushes there (CloudService+DatabaseSubscriptions.swift).
    var registeredDevices: SortedMap<DatabaseScope, [String]> = [:]
    /// Named `CKDatabaseSubscription`s, per scope, by subscription ID.
    var databaseSubscriptions: SortedMap<DatabaseScope, [String: DatabaseSubscription]> = [:]
    /// `CKQuerySubscription`s of the private database, by subscription ID.
    var querySubscriptions: [String: QuerySubscription] = [:]
    /// `CKRecordZoneSubscription`s of the private database, by subscription ID.
    var zoneSubscriptions: [String: ZoneSubscription] = [:]
    /// The devices registered in the private database, as a set for the query and zone
    /// pushes (CloudService+QuerySubscriptions.swift).
    var queryPushDevices: Set<String> = []
    var isQuotaFull = false
    /// Every request of the account fails `requestRateLimited` before this time.
    var throttleEnd: SimTime?
    /// `fail-downloads ACCOUNT for D`: change feeds fail until then (a SyncLab addition).
    var feedFailureEnd: SimTime?
    var partialThrottle: PartialThrottle?
    /// `throttleNextDeletes`: the first N deletes of the next request with a delete fail
    /// `requestRateLimited` with this retry-after, on the item.
    var deleteThrottle: PartialThrottle?
    /// `zoneBusy(_:until:)`: zone fetches of these zones fail `zoneBusy` until then.
    var busyZones: [ZoneID: SimTime] = [:]
    /// Record names whose saves fail with the given code (`reject ... with CODE`).
    var rejectedRecords: [String: CloudErrorCode] = [:]
    /// Last sequence of the shared database feed (other owners' zones this account sees).
    var sharedDatabaseSequence: Int64 = 0
    /// Per owner zone of the shared database: when it last changed and was last removed.
    /// A sorted map, as `zoneFeed` (a fetch reads either).
    var sharedZoneFeed: SortedMap<ZoneID, ZoneFeedEntry> = [:]
    /// This account's view of each owner zone it ever had in its shared database.
    var sharedViews: [ZoneID: SharedZoneView] = [:]
    /// Why the account last lost access to an owner zone (or was removed before accepting);
    /// cleared when it accepts again. Names the reason of later refusals.
    var accessLosses: [ZoneID: AccessLoss] = [:]

    init(name: String) {
        self.name = name
        self.userRecordName = UserRecordName.make(for: name)
    }

    /// Devices subscribed to `scope`, sorted, without `originator`.
    func pushTargets(scope: DatabaseScope, excluding originator: String?) -> [String] {
        Self.targets(subscribers[scope] ?? [], excluding: originator)
    }

    /// A sorted list of subscribed devices without `originator`.
    static func targets(_ devices: [String], excluding originator: String?) -> [String] {
        guard let originator, let position = devices.firstIndex(of: originator) else {
            return devices
        }
        // Built from the two runs around the originator: removing it from a copy copied the
        // list (shared with the account's state) in full first, then moved its tail.
        var targets: [String] = []
        targets.reserveCapacity(devices.count - 1)
        for index in devices.indices where index != position { targets.append(devices[index]) }
        return targets
    }

    /// Records a device as holding the engines' database subscription on `scope`
    /// (idempotent); database pushes of the scope reach it from now on.
    mutating func subscribe(_ device: String, scope: DatabaseScope) {
        Self.insert(device, into: &engineSubscribers, scope: scope)
        Self.insert(device, into: &subscribers, scope: scope)
    }

    /// Records a device as registered for the account's subscription pushes on `scope`
    /// (idempotent): it saved or fetched one of its subscriptions there.
    mutating func register(_ device: String, scope: DatabaseScope) {
        if scope == .privateDatabase { queryPushDevices.insert(device) }
        guard Self.insert(device, into: &registeredDevices, scope: scope) else { return }
        refreshSubscribers(scope: scope)
    }

    /// Removes the named database subscription `id` of `scope`, if any (another
    /// subscription of that ID replaces it).
    mutating func forgetNamedSubscription(_ id: String, scope: DatabaseScope) {
        guard databaseSubscriptions[scope]?.removeValue(forKey: id) != nil else { return }
        refreshSubscribers(scope: scope)
    }

    /// Sets the database push list of `scope` again: the engines' subscribers, and the
    /// registered devices while a named database subscription of the scope exists.
    mutating func refreshSubscribers(scope: DatabaseScope) {
        let engines = engineSubscribers[scope] ?? []
        let named = databaseSubscriptions[scope]?.isEmpty == false
        let registered = named ? registeredDevices[scope] ?? [] : []
        let merged = Self.merged(engines, registered)
        subscribers[scope] = merged.isEmpty ? nil : merged
    }

    /// Two sorted lists without repeats as one, sorted, each name once.
    static func merged(_ first: [String], _ second: [String]) -> [String] {
        var result: [String] = []
        result.reserveCapacity(first.count + second.count)
        var (i, j) = (0, 0)
        while i < first.count || j < second.count {
            if j == second.count || (i < first.count && first[i] < second[j]) {
                result.append(first[i])
                i += 1
            } else {
                if i < first.count, first[i] == second[j] { i += 1 }
                result.append(second[j])
                j += 1
            }
        }
        return result
    }

    /// Inserts `device` into the sorted list of `scope`; false when it was there already.
    @discardableResult
    private static func insert(
        _ device: String, into lists: inout SortedMap<DatabaseScope, [String]>,
        scope: DatabaseScope
    ) -> Bool {
        let devices = lists[scope] ?? []
        let position = devices.firstIndex { $0 >= device } ?? devices.endIndex
        guard position == devices.endIndex || devices[position] != device else { return false }
        lists[scope, default: []].insert(device, at: position)
        return true
    }

    /// Appends a "zone has changes" entry (creation or record changes) to the database feed.
    mutating func noteZoneChanged(_ zone: ZoneID) {
        databaseSequence += 1
        zoneFeed[zone, default: ZoneFeedEntry()].lastChangeSequence = databaseSequence
    }

    /// Appends a zone deletion to the database feed.
    mutating func noteZoneDeleted(_ zone: ZoneID, reason: ZoneDeletionReason) {
        databaseSequence += 1
        zoneFeed[zone, default: ZoneFeedEntry()].lastDeletion =
            ZoneFeedEntry.Deletion(sequence: databaseSequence, reason: reason)
    }

    /// Appends "the owner zone has changes for this account" to the shared database feed.
    mutating func noteSharedZoneChanged(_ zone: ZoneID) {
        sharedDatabaseSequence += 1
        sharedZoneFeed[zone, default: ZoneFeedEntry()].lastChangeSequence =
            sharedDatabaseSequence
    }

    /// Appends "the owner zone left this account's shared database" to its feed.
    mutating func noteSharedZoneDeleted(_ zone: ZoneID) {
        sharedDatabaseSequence += 1
        sharedZoneFeed[zone, default: ZoneFeedEntry()].lastDeletion =
            ZoneFeedEntry.Deletion(sequence: sharedDatabaseSequence, reason: .deleted)
    }

    /// Whether the owner zone is in this account's shared database now.
    func hasSharedZone(_ zone: ZoneID) -> Bool {
        sharedViews[zone]?.isLive == true
    }
}

/// The database feed of one zone, compacted: a fetch only needs the latest of each kind.
struct ZoneFeedEntry: Hashable {
    struct Deletion: Hashable {
        var sequence: Int64
        var reason: ZoneDeletionReason
    }

    /// Sequence of the latest creation or record change; 0 when none.
    var lastChangeSequence: Int64 = 0
    var lastDeletion: Deletion?
}

/// `throttle ACCOUNT next-upload N records retry-after D`, waiting for its upload.
struct PartialThrottle: Hashable {
    var recordCount: Int
    var retryAfter: SimTime
}
