import CloudSim

extension CKRecord {
    /// Sets who created and last changed a record the cloud returned. In a zone of the
    /// user's own private database, CloudKit names both as the current user,
    /// `__defaultOwner__`, not the user's record name; elsewhere the cloud keeps the device
    /// that saved last, named as such, and no creator.
    func setUsers(of record: CloudRecord, account: String?) {
        guard record.creationTime != nil else { return }
        let zone = record.zone
        if !zone.isPublicZone, zone.owner == account || zone.owner.isEmpty {
            let user = ID(recordName: CKCurrentUserDefaultName)
            (creatorUserRecordID, lastModifiedUserRecordID) = (user, user)
        } else {
            lastModifiedUserRecordID = record.lastModifiedBy.map { ID(recordName: $0) }
        }
    }
}
