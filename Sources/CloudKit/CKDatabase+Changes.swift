import CloudSim

extension CKDatabase {
    /// Changes of one zone (Apple's `CKDatabase.RecordZoneChange`).
    public enum RecordZoneChange {
        public struct Modification: @unchecked Sendable {
            // `@unchecked`: holds a record (a class), as Apple's does.
            public let record: CKRecord
            public var recordID: CKRecord.ID { record.recordID }
        }

        public struct Deletion: Sendable {
            public let recordID: CKRecord.ID
            public let recordType: CKRecord.RecordType
        }
    }

    /// Changes of the database's zones (Apple's `CKDatabase.DatabaseChange`).
    public enum DatabaseChange {
        public struct Modification: Sendable {
            public let zoneID: CKRecordZone.ID
        }

        public struct Deletion: Sendable {
            public let zoneID: CKRecordZone.ID
            public let purged: Bool
        }
    }

    /// One page of a zone's changes since `token`
    /// (Apple's `recordZoneChanges(inZoneWith:since:…)`).
    public func recordZoneChanges(
        inZoneWith zoneID: CKRecordZone.ID, since token: CKServerChangeToken?,
        desiredKeys: [CKRecord.FieldKey]? = nil, resultsLimit: Int? = nil
    ) async throws -> (
        modificationResultsByID: [CKRecord.ID: Result<RecordZoneChange.Modification, any Error>],
        deletions: [RecordZoneChange.Deletion], changeToken: CKServerChangeToken, moreComing: Bool
    ) {
        let page = try await zoneChangePage(
            zoneID, since: token, resultsLimit: resultsLimit, desiredKeys: desiredKeys)
        var modifications: [CKRecord.ID: Result<RecordZoneChange.Modification, any Error>] = [:]
        for record in page.records {
            modifications[record.recordID] = .success(RecordZoneChange.Modification(record: record))
        }
        return (modifications, page.deletions, page.token, page.moreComing)
    }

    /// One page of a zone's changes in the server's order (the operations call their blocks in
    /// it), each record with the fields `desiredKeys` lists (nil: every field).
    func zoneChangePage(
        _ zoneID: CKRecordZone.ID, since token: CKServerChangeToken?, resultsLimit: Int?,
        desiredKeys: [CKRecord.FieldKey]?
    ) async throws -> (records: [CKRecord], deletions: [RecordZoneChange.Deletion],
                       token: CKServerChangeToken, moreComing: Bool) {
        let runtime = try Self.runtime("recordZoneChanges")
        let response = await runtime.request(.fetchZoneChanges(
            scope: databaseScope.simulated, zone: zoneID.simulated(account: runtime.account ?? ""),
            token: token?.zone, resultsLimit: resultsLimit ?? 0))
        guard case .zoneChanges(let records, let deletions, let newToken,
            let moreComing) = response else {
            throw Self.error(response, runtime)
        }
        let deleted = deletions.map {
            RecordZoneChange.Deletion(recordID: CKRecord.ID(recordName: $0.recordName,
                zoneID: zoneID), recordType: $0.recordType)
        }
        return (records.map { CKRecord.from($0, account: runtime.account)
            .keepingOnly(desiredKeys) }, deleted,
                CKServerChangeToken(zone: newToken), moreComing)
    }

    /// Every zone of the database (Apple's `allRecordZones()`), in name order.
    public func allRecordZones() async throws -> [CKRecordZone] {
        var zones: [CKRecordZone.ID] = []
        var token: CKServerChangeToken?
        var more = true
        while more {
            let page = try await databaseChanges(since: token)
            zones += page.modifications.map(\.zoneID)
            zones.removeAll { id in page.deletions.contains { $0.zoneID == id } }
            token = page.changeToken
            more = page.moreComing
        }
        var unique: [CKRecordZone.ID] = []
        for zone in zones where !unique.contains(zone) { unique.append(zone) }
        return unique.sorted { ($0.ownerName, $0.zoneName) < ($1.ownerName, $1.zoneName) }
            .map { CKRecordZone(zoneID: $0) }
    }

    /// The database's zone changes since `token` (Apple's `databaseChanges(since:resultsLimit:)`).
    public func databaseChanges(
        since token: CKServerChangeToken?, resultsLimit: Int? = nil
    ) async throws -> (
        modifications: [DatabaseChange.Modification], deletions: [DatabaseChange.Deletion],
        changeToken: CKServerChangeToken, moreComing: Bool
    ) {
        let runtime = try Self.runtime("databaseChanges")
        let response = await runtime.request(.fetchDatabaseChanges(scope: databaseScope.simulated,
            token: token?.database))
        guard case .databaseChanges(let changed, let deleted, let newToken,
            let moreComing) = response else {
            throw Self.error(response, runtime)
        }
        return (changed.map { .init(zoneID: .of($0, account: runtime.account)) },
                deleted.map { .init(zoneID: .of($0.zone, account: runtime.account),
                    purged: $0.reason == .purged) },
                CKServerChangeToken(database: newToken), moreComing)
    }
}

/// A change token (Apple's `CKServerChangeToken`): opaque to the app, archivable.
public final class CKServerChangeToken: NSObject, NSSecureCoding, @unchecked Sendable {
    // `@unchecked`: immutable after init.
    public static var supportsSecureCoding: Bool { true }
    let zone: ZoneChangeToken?
    let database: DatabaseChangeToken?

    init(zone: ZoneChangeToken) {
        self.zone = zone
        database = nil
    }

    init(database: DatabaseChangeToken) {
        self.database = database
        zone = nil
    }

    public required init?(coder: NSCoder) {
        guard let kind = coder.decodeObject(of: NSString.self, forKey: "kind") as String?,
              let owner = coder.decodeObject(of: NSString.self,
                  forKey: "owner") as String? else { return nil }
        let sequence = coder.decodeInt64(forKey: "sequence")
        let epoch = coder.decodeInt64(forKey: "epoch")
        if kind == "zone", let name = coder.decodeObject(of: NSString.self,
            forKey: "name") as String? {
            zone = ZoneChangeToken(
                zone: ZoneID(owner: owner, name: name),
                    incarnation: coder.decodeInt64(forKey: "incarnation"),
                sequence: sequence, epoch: epoch)
            database = nil
        } else {
            let scope: DatabaseScope =
                coder.decodeInt64(forKey: "scope") == 1 ? .sharedDatabase : .privateDatabase
            database = DatabaseChangeToken(account: owner, scope: scope, sequence: sequence,
                epoch: epoch)
            zone = nil
        }
    }

    public func encode(with coder: NSCoder) {
        if let zone {
            coder.encode("zone" as NSString, forKey: "kind")
            coder.encode(zone.zone.owner as NSString, forKey: "owner")
            coder.encode(zone.zone.name as NSString, forKey: "name")
            coder.encode(zone.incarnation, forKey: "incarnation")
            coder.encode(zone.sequence, forKey: "sequence")
            coder.encode(zone.epoch, forKey: "epoch")
        } else if let database {
            coder.encode("database" as NSString, forKey: "kind")
            coder.encode(database.account as NSString, forKey: "owner")
            coder.encode(Int64(database.scope == .sharedDatabase ? 1 : 0), forKey: "scope")
            coder.encode(database.sequence, forKey: "sequence")
            coder.encode(database.epoch, forKey: "epoch")
        }
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CKServerChangeToken else { return false }
        return other.zone == zone && other.database == database
    }

    public override var hash: Int { Int(truncatingIfNeeded: zone?.sequence ?? database?.sequence
        ?? 0) }
}
