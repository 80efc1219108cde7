import CloudSim

extension CKDatabase {
    /// Saves and deletes records (Apple's `modifyRecords(saving:deleting:savePolicy:atomically:)`).
    ///
    /// In the private database it is one request across zones, as Apple's operation is: an
    /// error of the whole request is thrown and nothing was applied; otherwise every item has
    /// its result, a missing zone failing its items ([CKModifyRecordsOperation] `isAtomic`:
    /// atomic "in a record zone", so `atomically` holds per zone). The simulated request
    /// carries the deletes of one zone: deletes in further zones, and the zones of the shared
    /// database (its requests name one zone), go in one more request each, in zone order.
    /// Once a request was answered item by item, a later one that fails as a whole fails its
    /// items and those of the requests not sent with its error, and the results of the
    /// requests before are returned (Apple reports a failure inside an operation per item,
    /// in a partial failure); a zone's own error (`zoneNotFound`…) fails only that zone's items.
    @discardableResult
    public func modifyRecords(
        saving recordsToSave: [CKRecord], deleting recordIDsToDelete: [CKRecord.ID],
        savePolicy: CKModifyRecordsOperation.RecordSavePolicy = .ifServerRecordUnchanged,
            atomically: Bool = true
    ) async throws -> (
        saveResults: [CKRecord.ID: Result<CKRecord, any Error>],
            deleteResults: [CKRecord.ID: Result<Void, any Error>]
    ) {
        let runtime = try Self.runtime("modifyRecords")
        let account = runtime.account ?? ""
        var results = ModifyResults()
        let parts = modifyParts(saving: recordsToSave, deleting: recordIDsToDelete)
        var answered = false
        for (index, part) in parts.enumerated() { // tidy: ordered (an array, in zone order)
            let response = await runtime.request(.modifyRecords(
                scope: databaseScope.simulated, zone: part.zone.simulated(account: account),
                saves: part.saves.map { $0.simulatedSave(account: account) },
                    deletes: part.deletes.map(\.recordName),
                policy: savePolicy.simulated, atomic: atomically))
            guard case .recordsModified(let items) = response else {
                let error = Self.error(response, runtime)
                if Self.isZoneError(error.code) {
                    results.fail(part, with: error)
                    continue
                }
                guard answered else { throw error }
                for unsent in parts[index...] { results.fail(unsent, with: error) }
                break
            }
            answered = true
            results.record(items, of: part, account: runtime.account)
        }
        var saveResults = results.saves
        await sendShareSteps(of: recordsToSave, into: &saveResults, runtime: runtime)
        return (saveResults, results.deletes)
    }

    /// One `modifyRecords` request: the zone it names, its saves and its deletes.
    struct ModifyPart {
        var zone: CKRecordZone.ID
        var saves: [CKRecord]
        var deletes: [CKRecord.ID]
    }

    /// The requests of a `modifyRecords` call: in the private database every save with the
    /// deletes of the first zone, then the deletes of each further zone; in the shared
    /// database one request per zone. Zones in name order.
    func modifyParts(saving saves: [CKRecord], deleting ids: [CKRecord.ID]) -> [ModifyPart] {
        let order: (CKRecordZone.ID, CKRecordZone.ID) -> Bool = {
            ($0.ownerName, $0.zoneName) < ($1.ownerName, $1.zoneName)
        }
        func deletes(in zone: CKRecordZone.ID) -> [CKRecord.ID] {
            ids.filter { $0.zoneID == zone }
        }
        guard databaseScope != .shared else {
            let zones = Set(saves.map(\.recordID.zoneID) + ids.map(\.zoneID)).sorted(by: order)
            return zones.map { zone in // tidy: ordered (sorted above)
                ModifyPart(zone: zone, saves: saves.filter { $0.recordID.zoneID == zone },
                    deletes: deletes(in: zone))
            }
        }
        let deleteZones = Set(ids.map(\.zoneID)).sorted(by: order)
        let firstSaved = saves.map(\.recordID.zoneID).min(by: order) // tidy: ordered (an array)
        guard let first = deleteZones.first ?? firstSaved else { // tidy: ordered (sorted)
            return []
        }
        return [ModifyPart(zone: first, saves: saves, deletes: deletes(in: first))]
            + deleteZones.dropFirst().map { // tidy: ordered (sorted above)
                ModifyPart(zone: $0, saves: [], deletes: deletes(in: $0))
            }
    }

    /// The results of a `modifyRecords` call as its requests are answered.
    struct ModifyResults {
        var saves: [CKRecord.ID: Result<CKRecord, any Error>] = [:]
        var deletes: [CKRecord.ID: Result<Void, any Error>] = [:]

        /// Every item of a request that failed as a whole, with its error.
        mutating func fail(_ part: ModifyPart, with error: CKError) {
            for record in part.saves { saves[record.recordID] = .failure(error) }
            for id in part.deletes { deletes[id] = .failure(error) }
        }

        /// A request's answers, one per item in request order (saves, then deletes), so two
        /// records of one name in two zones keep apart.
        mutating func record(_ items: [ItemResult], of part: ModifyPart, account: String?) {
            let ids = part.saves.map(\.recordID) + part.deletes
            let inOrder = items.count == ids.count
            for (position, item) in items.enumerated() { // tidy: ordered (request order)
                let name: String
                switch item {
                case .saved(let record): name = record.recordName
                case .deleted(let deleted): name = deleted
                case .failed(let failed, _): name = failed
                }
                let index = inOrder ? position : ids.firstIndex { $0.recordName == name }
                guard let index else { continue }
                let id = ids[index]
                switch item {
                case .saved(let record):
                    saves[id] = .success(CKRecord.from(record, account: account))
                case .deleted:
                    deletes[id] = .success(())
                case .failed(_, let error):
                    let failure = CKError(error, account: account)
                    if index < part.saves.count {
                        saves[id] = .failure(failure)
                    } else {
                        deletes[id] = .failure(failure)
                    }
                }
            }
        }
    }
}
