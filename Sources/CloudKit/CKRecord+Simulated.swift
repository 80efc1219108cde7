import CloudSim
import Foundation
import Kernel

/// The simulated clock as dates: time zero is this instant (2023-11-14 22:13:20 UTC), so
/// `creationDate` and `modificationDate` repeat from run to run.
enum SimulatedDates {
    static let epoch = TimeInterval(SimulatedCalendar.startSecondsSince1970)

    static func date(_ time: SimTime) -> Date {
        Date.init(timeIntervalSince1970: epoch + Double(time.microseconds) / 1_000_000)
    }

}

extension CKRecord {
    /// The record as the simulated cloud takes it, the default owner resolved to `account`.
    func simulated(account: String) -> CloudRecord {
        var record = CloudRecord(
            recordType: recordType, recordName: recordID.recordName,
            zone: recordID.zoneID.simulated(account: account), fields: fields)
        record.changeTag = recordChangeTag
        record.parent = parent?.recordID.recordName
        record.share = share?.recordID.recordName
        return record
    }

    /// What a save sends: the record and the keys changed since it was fetched.
    func simulatedSave(account: String) -> RecordSave {
        RecordSave(record: simulated(account: account), changedKeys: changedKeys())
    }

    /// The app's record for one the cloud holds, as `account` sees it (a test reading the
    /// cloud between steps).
    public convenience init(simulated record: CloudRecord, account: String?) {
        self.init(record, account: account)
    }

    /// The same, as a `CKShare` when the cloud's record is a share.
    public static func simulated(_ record: CloudRecord, account: String?) -> CKRecord {
        from(record, account: account)
    }

    /// The app's record for one the cloud returned: a `CKShare` for a share record.
    static func from(_ record: CloudRecord, account: String?) -> CKRecord {
        record.isShare
            ? CKShare(share: record, account: account) : CKRecord(record, account: account)
    }

    /// The app's record for one the cloud returned (nothing changed yet).
    convenience init(_ record: CloudRecord, account: String?) {
        let zone = CKRecordZone.ID.of(record.zone, account: account)
        self.init(recordType: record.recordType, recordID: ID(recordName: record.recordName,
            zoneID: zone))
        fields = record.fields
        recordChangeTag = record.changeTag
        creationDate = record.creationTime.map(SimulatedDates.date)
        modificationDate = record.modificationTime.map(SimulatedDates.date)
        setUsers(of: record, account: account)
        parent = record.parent.map { Reference(recordID: ID(recordName: $0, zoneID: zone),
            action: .none) }
        share = record.share.map { Reference(recordID: ID(recordName: $0, zoneID: zone),
            action: .none) }
    }
}
