import CloudSim
import Kernel

extension CKSyncEngine {
    /// `CKSyncEngine.State`: the tokens, the subscription, the last user and the pending
    /// changes. The app edits only the pending lists; every change reaches the app again only
    /// as a `stateUpdate` event (docs/CKSYNCENGINE.md, "State").
    public final class State {
        public private(set) var pendingDatabaseChanges: [PendingDatabaseChange] = []
        public private(set) var pendingRecordZoneChanges: [PendingRecordZoneChange] = []
        /// Zones the database feed reported changed whose changes are not all fetched yet.
        public internal(set) var zoneIDsWithUnfetchedServerChanges: [ZoneID] = []
        /// Set by an app that tracks its changes itself: schedules a send like an addition.
        public var hasPendingUntrackedChanges = false {
            didSet { if hasPendingUntrackedChanges { onChange?(true) } }
        }

        var databaseToken: DatabaseChangeToken?
        /// Lookup only; serialized sorted by zone.
        var zoneTokens: [ZoneID: ZoneChangeToken] = [:]
        var subscriptionSaved = false
        var lastUserRecordName: String?
        /// Pending changes added again while a request carrying them was in flight: their
        /// success must not remove them (the app changed the record again meanwhile).
        var readdedWhileInFlight: [PendingRecordZoneChange] = []
        var readdedZonesWhileInFlight: [PendingDatabaseChange] = []
        /// Told about every change; `true` when pending changes were added.
        var onChange: ((Bool) -> Void)?

        init(_ serialization: Serialization?) {
            guard let serialization else { return }
            databaseToken = serialization.databaseToken?.token
            for token in serialization.zoneTokens { zoneTokens[token.token.zone] = token.token }
            subscriptionSaved = serialization.subscriptionSaved
            lastUserRecordName = serialization.lastUserRecordName
            pendingDatabaseChanges = serialization.pendingDatabaseChanges.map(\.change)
            pendingRecordZoneChanges = serialization.pendingRecordZoneChanges.map(\.change)
            zoneIDsWithUnfetchedServerChanges = serialization.unfetchedZones.map(\.zone)
            hasPendingUntrackedChanges = serialization.hasPendingUntrackedChanges
        }

        /// `add(pendingRecordZoneChanges:)`. Apple's de-duplication: a change already pending
        /// stays where it is (save A, save B, save A gives [save A, save B]); a change replaces
        /// the opposite change of the same record, which leaves the list and the new one is
        /// appended (save then delete leaves the delete, delete then save the save).
        public func add(pendingRecordZoneChanges changes: [PendingRecordZoneChange]) {
            guard !changes.isEmpty else { return }
            for change in changes {
                if !readdedWhileInFlight.contains(where: { $0.isSameChange(as: change) }) {
                    readdedWhileInFlight.append(change)
                }
                if pendingRecordZoneChanges.contains(where: { $0.isSameChange(as: change) }) {
                    continue
                }
                pendingRecordZoneChanges.removeAll { $0.recordID.isSameRecord(as: change.recordID) }
                pendingRecordZoneChanges.append(change)
            }
            onChange?(true)
        }

        /// `remove(pendingRecordZoneChanges:)`.
        public func remove(pendingRecordZoneChanges changes: [PendingRecordZoneChange]) {
            guard !changes.isEmpty else { return }
            pendingRecordZoneChanges.removeAll { pending in
                changes.contains { $0.isSameChange(as: pending) }
            }
            onChange?(false)
        }

        /// `add(pendingDatabaseChanges:)`, with the same de-duplication per zone.
        public func add(pendingDatabaseChanges changes: [PendingDatabaseChange]) {
            guard !changes.isEmpty else { return }
            for change in changes {
                if !readdedZonesWhileInFlight.contains(where: { $0.isSameChange(as: change) }) {
                    readdedZonesWhileInFlight.append(change)
                }
                if pendingDatabaseChanges.contains(where: { $0.isSameChange(as: change) }) {
                    continue
                }
                pendingDatabaseChanges.removeAll { $0.zoneID.isSameZone(as: change.zoneID) }
                pendingDatabaseChanges.append(change)
            }
            onChange?(true)
        }

        /// `remove(pendingDatabaseChanges:)`.
        public func remove(pendingDatabaseChanges changes: [PendingDatabaseChange]) {
            guard !changes.isEmpty else { return }
            pendingDatabaseChanges.removeAll { pending in
                changes.contains { $0.isSameChange(as: pending) }
            }
            onChange?(false)
        }

        /// Removes a sent change unless the app added it again while it was in flight.
        func settle(_ change: PendingRecordZoneChange) {
            if readdedWhileInFlight.contains(where: { $0.isSameChange(as: change) }) { return }
            pendingRecordZoneChanges.removeAll { $0.isSameChange(as: change) }
        }

        func settle(_ change: PendingDatabaseChange) {
            if readdedZonesWhileInFlight.contains(where: { $0.isSameChange(as: change) }) { return }
            pendingDatabaseChanges.removeAll { $0.isSameChange(as: change) }
        }

        /// The record changes the last reset threw away (an account change's), which the app
        /// can no longer read from the pending list when it hears of the change.
        public private(set) var recordZoneChangesDroppedAtReset: [PendingRecordZoneChange] = []

        /// Everything but the last user: what an account change throws away.
        func reset() {
            recordZoneChangesDroppedAtReset = pendingRecordZoneChanges
            pendingDatabaseChanges = []
            pendingRecordZoneChanges = []
            zoneIDsWithUnfetchedServerChanges = []
            databaseToken = nil
            zoneTokens = [:]
            subscriptionSaved = false
            hasPendingUntrackedChanges = false
            readdedWhileInFlight = []
            readdedZonesWhileInFlight = []
        }

        /// The state as the app must persist it.
        var serialization: Serialization {
            Serialization(
                databaseToken: databaseToken.map(Serialization.DatabaseToken.init),
                zoneTokens: zoneTokens.keys.sorted().compactMap { zoneTokens[$0] }
                    .map(Serialization.ZoneToken.init),
                subscriptionSaved: subscriptionSaved,
                lastUserRecordName: lastUserRecordName,
                pendingDatabaseChanges:
                    pendingDatabaseChanges.map(Serialization.DatabaseChange.init),
                pendingRecordZoneChanges:
                    pendingRecordZoneChanges.map(Serialization.RecordChange.init),
                unfetchedZones: zoneIDsWithUnfetchedServerChanges.map(Serialization.Zone.init),
                hasPendingUntrackedChanges: hasPendingUntrackedChanges)
        }

        /// `CKSyncEngine.State.Serialization`: opaque to the app, a value it stores in its sync
        /// data (Hashable) or encodes (Codable) and passes back at init.
        public struct Serialization: Hashable, Sendable {
            struct Zone: Hashable, Sendable {
                var owner: String
                var name: String
                init(_ zone: ZoneID) { owner = zone.owner; name = zone.name }
                var zone: ZoneID { ZoneID(owner: owner, name: name) }
            }
            struct DatabaseToken: Hashable, Sendable {
                var account: String
                var scope: String
                var sequence: Int64
                var epoch: Int64
                init(_ token: DatabaseChangeToken) {
                    account = token.account
                    scope = token.scope.rawValue
                    sequence = token.sequence
                    epoch = token.epoch
                }
                var token: DatabaseChangeToken {
                    DatabaseChangeToken(
                        account: account, scope: DatabaseScope(rawValue: scope) ?? .privateDatabase,
                        sequence: sequence, epoch: epoch)
                }
            }
            struct ZoneToken: Hashable, Sendable {
                var zone: Zone
                var incarnation: Int64
                var sequence: Int64
                var epoch: Int64
                var participant: String?
                init(_ token: ZoneChangeToken) {
                    zone = Zone(token.zone)
                    incarnation = token.incarnation
                    sequence = token.sequence
                    epoch = token.epoch
                    participant = token.participant
                }
                var token: ZoneChangeToken {
                    var token = ZoneChangeToken(
                        zone: zone.zone, incarnation: incarnation, sequence: sequence, epoch: epoch)
                    token.participant = participant
                    return token
                }
            }
            struct DatabaseChange: Hashable, Sendable {
                var delete: Bool
                var zone: Zone
                init(_ change: PendingDatabaseChange) {
                    if case .deleteZone = change { delete = true } else { delete = false }
                    zone = Zone(change.zoneID)
                }
                var change: PendingDatabaseChange {
                    delete ? .deleteZone(zone.zone) : .saveZone(zone.zone)
                }
            }
            struct RecordChange: Hashable, Sendable {
                var delete: Bool
                var zone: Zone
                var recordName: String
                init(_ change: PendingRecordZoneChange) {
                    if case .deleteRecord = change { delete = true } else { delete = false }
                    zone = Zone(change.recordID.zoneID)
                    recordName = change.recordID.recordName
                }
                var change: PendingRecordZoneChange {
                    let id = RecordID(recordName: recordName, zoneID: zone.zone)
                    return delete ? .deleteRecord(id) : .saveRecord(id)
                }
            }

            var databaseToken: DatabaseToken?
            var zoneTokens: [ZoneToken]
            var subscriptionSaved: Bool
            var lastUserRecordName: String?
            var pendingDatabaseChanges: [DatabaseChange]
            var pendingRecordZoneChanges: [RecordChange]
            var unfetchedZones: [Zone]
            var hasPendingUntrackedChanges: Bool
        }
    }
}
