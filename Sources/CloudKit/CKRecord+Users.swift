import CloudSim

extension CKRecord {
    /// Sets who created and last changed a record the cloud returned, as CloudKit names
    /// users: the current user as `__defaultOwner__`, another account by its user record
    /// name. The cloud keeps an account only when it is not the zone's owner: none means
    /// the owner (in the public database, no one).
    func setUsers(of record: CloudRecord, account: String?) {
        guard record.creationTime != nil else { return }
        let zone = record.zone
        let owner: String? = zone.isPublicZone ? nil : zone.owner.isEmpty ? account : zone.owner
        func user(_ name: String) -> ID {
            ID(recordName: name == account
                ? CKCurrentUserDefaultName : CloudService.userRecordName(for: name))
        }
        creatorUserRecordID = (record.creatorAccount ?? owner).map(user)
        lastModifiedUserRecordID = (record.lastModifierAccount ?? owner).map(user)
    }
}
