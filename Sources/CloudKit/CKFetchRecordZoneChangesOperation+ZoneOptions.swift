import Foundation

extension CKFetchRecordZoneChangesOperation {
    /// Apple's earlier per-zone options (before `ZoneConfiguration`): where to start, how many
    /// changes a page may hold, which keys.
    public final class ZoneOptions: NSObject, @unchecked Sendable {
        public var previousServerChangeToken: CKServerChangeToken?
        public var resultsLimit: Int = 0
        public var desiredKeys: [String]?

        public override init() {}
    }

    /// Apple's earlier initializer, with options instead of configurations. Disfavoured, so
    /// that `init(recordZoneIDs:)` alone means the current one, as apps mean it.
    @_disfavoredOverload
    public convenience init(recordZoneIDs: [CKRecordZone.ID],
                            optionsByRecordZoneID: [CKRecordZone.ID: ZoneOptions]? = nil) {
        self.init(recordZoneIDs: recordZoneIDs, configurationsByRecordZoneID: nil)
        self.optionsByRecordZoneID = optionsByRecordZoneID
    }

    /// A zone's configuration, or its earlier options taken as one.
    func configuration(of zone: CKRecordZone.ID) -> ZoneConfiguration? {
        if let configuration = configurationsByRecordZoneID?[zone] { return configuration }
        guard let options = optionsByRecordZoneID?[zone] else { return nil }
        return ZoneConfiguration(previousServerChangeToken: options.previousServerChangeToken,
            resultsLimit: options.resultsLimit, desiredKeys: options.desiredKeys)
    }
}
