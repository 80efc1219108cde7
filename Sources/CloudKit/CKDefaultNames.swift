import CloudSim

/// The default zone's name (Apple's `CKRecordZoneDefaultName`).
public let CKRecordZoneDefaultName = CKRecordZone.ID.defaultZoneName

/// The record name of a zone-wide share (Apple's `CKRecordNameZoneWideShare`): every share
/// made with `CKShare(recordZoneID:)` is named so.
public let CKRecordNameZoneWideShare = CloudRecord.zoneShareRecordName
