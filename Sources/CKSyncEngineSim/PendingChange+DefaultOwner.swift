import CloudSim

// An app names its private zones with the default owner (`CKCurrentUserDefaultName`), and
// Apple's engine keeps that name as it is, so a change added while signed out and the same
// change added after signing in are one pending change. Here a zone named while signed out
// has no owner, and one named while signed in has the account's: the two name the same zone.

extension ZoneID {
    /// The same zone: equal, or the same name with one of them named without an owner.
    public func isSameZone(as other: ZoneID) -> Bool {
        name == other.name && (owner == other.owner || owner.isEmpty || other.owner.isEmpty)
    }
}

extension RecordID {
    func isSameRecord(as other: RecordID) -> Bool {
        recordName == other.recordName && zoneID.isSameZone(as: other.zoneID)
    }
}

extension CKSyncEngine.PendingRecordZoneChange {
    /// The same kind of change of the same record.
    func isSameChange(as other: Self) -> Bool {
        switch (self, other) {
        case (.saveRecord(let mine), .saveRecord(let theirs)),
             (.deleteRecord(let mine), .deleteRecord(let theirs)):
            return mine.isSameRecord(as: theirs)
        default:
            return false
        }
    }
}

extension CKSyncEngine.PendingDatabaseChange {
    func isSameChange(as other: Self) -> Bool {
        switch (self, other) {
        case (.saveZone(let mine), .saveZone(let theirs)),
             (.deleteZone(let mine), .deleteZone(let theirs)):
            return mine.isSameZone(as: theirs)
        default:
            return false
        }
    }
}

extension CKSyncEngine.State {
    /// Whether `change` is pending, its zone's owner matched as the list matches it.
    public func isPending(_ change: CKSyncEngine.PendingRecordZoneChange) -> Bool {
        pendingRecordZoneChanges.contains { $0.isSameChange(as: change) }
    }
}
