extension CKDatabase {
    /// Fetches zones by ID (Apple's `recordZones(for:)`): one request per zone, in the order
    /// given. A zone that does not exist is its own `zoneNotFound`; an error that is not the
    /// zone's (no network, no account, throttled) is thrown, as for the whole request.
    public func recordZones(
        for ids: [CKRecordZone.ID]
    ) async throws -> [CKRecordZone.ID: Result<CKRecordZone, any Error>] {
        _ = try Self.runtime("recordZones(for:)")
        var results: [CKRecordZone.ID: Result<CKRecordZone, any Error>] = [:]
        for id in ids where results[id] == nil { // tidy: ordered (the app's array)
            do {
                results[id] = .success(try await recordZone(for: id))
            } catch let error as CKError where Self.isZoneError(error.code) {
                results[id] = .failure(error)
            }
        }
        return results
    }

    /// Whether an error of a zone fetch is the zone's own, not the request's.
    static func isZoneError(_ code: CKError.Code) -> Bool {
        [.zoneNotFound, .userDeletedZone, .unknownItem, .permissionFailure].contains(code)
    }
}
