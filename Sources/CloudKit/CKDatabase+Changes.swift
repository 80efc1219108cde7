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
            /// Why the zone went away (Apple's `CKDatabase.DatabaseChange.Deletion.Reason`).
            public enum Reason: Sendable, Hashable {
                case deleted
                /// The user deleted the app's data in iCloud settings.
                case purged
                /// The user reset their encrypted data; the app should upload its copy again.
                case encryptedDataReset
            }

            public let zoneID: CKRecordZone.ID
            public let reason: Reason
            /// Apple's earlier form of `reason == .purged`.
            public var purged: Bool { reason == .purged }

            init(zoneID: CKRecordZone.ID, reason: ZoneDeletionReason) {
                self.zoneID = zoneID
                switch reason {
                case .deleted: self.reason = .deleted
                case .purged: self.reason = .purged
                case .encryptedDataReset: self.reason = .encryptedDataReset
                }
            }
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

    /// Every zone of the database (Apple's `allRecordZones()`): in the private database the
    /// default zone first, which is always there ([CKRecordZone]: "The public and private
    /// databases each have a single default zone"; the database feed never lists it), then
    /// the others in name order. The shared database has no default zone; the public one
    /// has that zone only (answered without a request).
    public func allRecordZones() async throws -> [CKRecordZone] {
        // The public database has its default zone only, and no database feed to read.
        if databaseScope == .public { return [CKRecordZone.default()] }
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
        let named = unique.sorted { ($0.ownerName, $0.zoneName) < ($1.ownerName, $1.zoneName) }
            .map { CKRecordZone(zoneID: $0) }
        return databaseScope == .shared ? named : [CKRecordZone.default()] + named
    }

    /// The database's zone changes since `token` (Apple's `databaseChanges(since:resultsLimit:)`):
    /// at most `resultsLimit` zones (nil or 0: the server's page), `moreComing` when more are
    /// left ([CKFetchDatabaseChangesOperation] `resultsLimit`: "When the operation reaches the
    /// limit, it updates the change token and returns it to indicate that more results are
    /// available"). The simulated server's page is fixed, so the device keeps the zones of a
    /// page past the limit in the token it returns and hands them out first on the next call,
    /// which still sends its request (deletions before changes, so a zone deleted and created
    /// again is dropped, then fetched).
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
        let fresh = deleted.map { PendingZoneChange(zone: $0.zone, deletion: $0.reason) }
            + changed.map { PendingZoneChange(zone: $0, deletion: nil) }
        let entries = PendingZoneChange.merging(token?.pending ?? [], fresh)
        let limit = resultsLimit.flatMap { $0 > 0 ? $0 : nil } ?? entries.count
        let given = entries.prefix(limit)
        let modifications = given.filter { $0.deletion == nil }.map {
            DatabaseChange.Modification(zoneID: .of($0.zone, account: runtime.account)) }
        let deletions = given.compactMap { entry in entry.deletion.map {
            DatabaseChange.Deletion(zoneID: .of(entry.zone, account: runtime.account),
                reason: $0) } }
        let rest = Array(entries.dropFirst(limit))
        return (modifications, deletions, CKServerChangeToken(database: newToken, pending: rest),
                moreComing || !rest.isEmpty)
    }
}
