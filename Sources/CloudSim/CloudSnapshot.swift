import Kernel

/// The whole cloud as one sorted, deterministic value, so a test can compare the cloud before
/// and after a step, or against a golden text (`description`).
public struct CloudSnapshot: Hashable, Sendable, CustomStringConvertible {
    public var environment: CloudEnvironment
    public var outageEnd: SimTime?
    public var changeTagCounter: Int64
    public var developmentSchema: [RecordType]
    public var productionSchema: [RecordType]
    /// Every account the cloud knows, sorted by name.
    public var accounts: [Account]
    /// The public database's zone, once a request stored a record there (nil before: the
    /// bundled engines never use it).
    public var publicZone: Zone? = nil
    /// The public database's record creators, sorted by record name.
    public var publicCreators: [PublicCreator] = []

    public struct PublicCreator: Hashable, Sendable {
        public var recordName: String
        public var account: String
    }

    /// One record type of a schema, fields sorted by key.
    public struct RecordType: Hashable, Sendable {
        public var name: String
        public var fields: [Field]
    }

    public struct Field: Hashable, Sendable {
        public var key: String
        /// Schema type name (`STRING`, `INT64`, `LIST<STRING>`, ...).
        public var type: String
    }

    public struct Account: Hashable, Sendable {
        public var name: String
        public var userRecordName: String
        public var tokenEpoch: Int64
        public var databaseSequence: Int64
        public var isQuotaFull: Bool
        public var throttleEnd: SimTime?
        /// The pending next-upload throttle: record count and retry-after.
        public var partialThrottle: PartialThrottleSnapshot?
        /// Rejected record names with their codes, sorted by name.
        public var rejectedRecords: [RejectedRecord]
        /// Subscribed devices per scope (private first), each list sorted.
        public var subscriptions: [Subscription]
        /// Every zone that ever existed in the account's private database, sorted.
        public var zones: [Zone]
        /// Last sequence of the shared database feed.
        public var sharedDatabaseSequence: Int64
        /// Every owner zone the account ever had in (or was refused from) its shared
        /// database, sorted.
        public var sharedZones: [SharedZone]
    }

    /// One owner zone as an account's shared database sees it.
    public struct SharedZone: Hashable, Sendable {
        public var zone: ZoneID
        /// Which life of the account's view (0: never accepted).
        public var life: Int64
        public var isLive: Bool
        public var sequence: Int64
        /// Visible record names, sorted.
        public var visible: [String]
        /// Names that left the view (deleted, moved out, unshared), sorted.
        public var gone: [String]
        /// Why the account last lost the zone, if it did.
        public var loss: AccessLoss?
    }

    public struct PartialThrottleSnapshot: Hashable, Sendable {
        public var recordCount: Int
        public var retryAfter: SimTime
    }

    public struct RejectedRecord: Hashable, Sendable {
        public var recordName: String
        public var code: CloudErrorCode
    }

    public struct Subscription: Hashable, Sendable {
        public var scope: DatabaseScope
        public var devices: [String]
    }

    public struct Zone: Hashable, Sendable {
        public enum Life: String, Hashable, Sendable {
            case live
            case deleted
            case purged
        }

        public var zone: ZoneID
        public var incarnation: Int64
        public var life: Life
        public var sequence: Int64
        /// Live records, sorted by name.
        public var records: [CloudRecord]
        /// Tombstones, sorted by record name.
        public var tombstones: [Tombstone]
    }

    public struct Tombstone: Hashable, Sendable {
        public var recordName: String
        public var recordType: String
        public var sequence: Int64
    }

    /// A line-per-fact rendering for golden files and readable test failures.
    public var description: String {
        SnapshotRenderer.render(self)
    }
}

extension CloudService {
    /// The whole cloud as a sorted value (see `CloudSnapshot`).
    public func snapshot() -> CloudSnapshot {
        CloudSnapshot(
            environment: configuration.environment,
            outageEnd: outageEnd,
            changeTagCounter: changeTagCounter,
            developmentSchema: developmentSchema.sortedTypes,
            productionSchema: productionSchema.sortedTypes,
            accounts: accountStates.keys.sorted().filter { $0 != ZoneID.publicDatabaseOwner }
                .compactMap { accountStates[$0].map(accountSnapshot) },
            publicZone: zoneStates[.publicZone].map(zoneSnapshot),
            publicCreators: publicDatabase.creators.keys.sorted().compactMap { name in
                publicDatabase.creators[name].map {
                    CloudSnapshot.PublicCreator(recordName: name, account: $0)
                }
            })
    }

    private func accountSnapshot(_ state: AccountState) -> CloudSnapshot.Account {
        let zones = zoneStates.keys.filter { $0.owner == state.name }.sorted()
        return CloudSnapshot.Account(
            name: state.name,
            userRecordName: state.userRecordName,
            tokenEpoch: state.tokenEpoch,
            databaseSequence: state.databaseSequence,
            isQuotaFull: state.isQuotaFull,
            throttleEnd: state.throttleEnd,
            partialThrottle: state.partialThrottle.map {
                CloudSnapshot.PartialThrottleSnapshot(
                    recordCount: $0.recordCount, retryAfter: $0.retryAfter)
            },
            rejectedRecords: state.rejectedRecords.keys.sorted().compactMap { name in
                state.rejectedRecords[name].map {
                    CloudSnapshot.RejectedRecord(recordName: name, code: $0)
                }
            },
            subscriptions: state.subscribers.keys.sorted().compactMap { scope in
                state.subscribers[scope].map {
                    CloudSnapshot.Subscription(scope: scope, devices: $0.sorted())
                }
            },
            zones: zones.compactMap { zoneStates[$0].map(zoneSnapshot) },
            sharedDatabaseSequence: state.sharedDatabaseSequence,
            sharedZones: sharedZoneSnapshots(state))
    }

    private func sharedZoneSnapshots(_ state: AccountState) -> [CloudSnapshot.SharedZone] {
        var known = Set(state.sharedViews.keys)
        known.formUnion(state.accessLosses.keys)
        return known.sorted().map { zone in
            let view = state.sharedViews[zone]
            return CloudSnapshot.SharedZone(
                zone: zone,
                life: view?.life ?? 0,
                isLive: view?.isLive ?? false,
                sequence: view?.sequence ?? 0,
                visible: view?.visibleNames ?? [],
                gone: view?.tombstones.keys.sorted() ?? [],
                loss: state.accessLosses[zone])
        }
    }

    private func zoneSnapshot(_ state: ZoneState) -> CloudSnapshot.Zone {
        let life: CloudSnapshot.Zone.Life =
            state.isLive ? .live : (state.isPurged ? .purged : .deleted)
        return CloudSnapshot.Zone(
            zone: state.id,
            incarnation: state.incarnation,
            life: life,
            sequence: state.sequence,
            records: state.records.sortedRecords(),
            tombstones: state.sortedTombstones.map {
                CloudSnapshot.Tombstone(
                    recordName: $0.recordName, recordType: $0.recordType, sequence: $0.sequence)
            })
    }
}
