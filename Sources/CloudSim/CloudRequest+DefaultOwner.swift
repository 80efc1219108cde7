extension CloudRequest {
    /// The request with every zone of the private database owned by `account`: that database
    /// holds only the signed-in account's zones, and the zone IDs engines keep name the
    /// default owner (`CKCurrentUserDefaultName`), so a zone ID kept from before an account
    /// switch names the new account's zone of that name (docs/CLOUDSIM.md *The default
    /// owner*).
    func resolvingPrivateOwners(to account: String) -> CloudRequest {
        func own(_ zone: ZoneID) -> ZoneID { ZoneID(owner: account, name: zone.name) }
        switch self {
        case .modifyZones(.privateDatabase, let save, let delete):
            return .modifyZones(
                scope: .privateDatabase, save: save.map(own), delete: delete.map(own))
        case .modifyRecords(.privateDatabase, let zone, let saves, let deletes, let policy,
            let atomic):
            let owned = saves.map { save in
                var save = save
                save.record.zone = own(save.record.zone)
                return save
            }
            return .modifyRecords(
                scope: .privateDatabase, zone: own(zone), saves: owned, deletes: deletes,
                policy: policy, atomic: atomic)
        case .fetchZoneChanges(.privateDatabase, let zone, let token, let resultsLimit):
            return .fetchZoneChanges(
                scope: .privateDatabase, zone: own(zone), token: token,
                resultsLimit: resultsLimit)
        case .fetchRecords(.privateDatabase, let zone, let names):
            return .fetchRecords(scope: .privateDatabase, zone: own(zone), names: names)
        case .fetchZone(.privateDatabase, let zone):
            return .fetchZone(scope: .privateDatabase, zone: own(zone))
        case .saveZoneSubscription(.privateDatabase, var subscription):
            subscription.zone = own(subscription.zone)
            return .saveZoneSubscription(scope: .privateDatabase, subscription)
        case .queryRecords(.privateDatabase, var query, let resultsLimit, let page):
            query.zone = query.zone.map(own)
            var cursor = page
            if var owned = page {
                owned.query.zone = owned.query.zone.map(own)
                owned.lastZone = own(owned.lastZone)
                cursor = owned
            }
            return .queryRecords(
                scope: .privateDatabase, query, resultsLimit: resultsLimit, cursor: cursor)
        default:
            return self
        }
    }
}
