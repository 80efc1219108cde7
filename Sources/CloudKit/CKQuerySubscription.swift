import CloudSim
import Foundation

/// Apple's `CKQuerySubscription`: a push to the account's other devices when a record of a
/// type that its predicate matches is created, updated or deleted (private database only).
/// The server evaluates the predicate (`CKQuerySubscription+Predicate.swift` says which).
public final class CKQuerySubscription: CKSubscription, @unchecked Sendable {
    /// Apple's options, with its raw values.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt

        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let firesOnRecordCreation = Options(rawValue: 1)
        public static let firesOnRecordUpdate = Options(rawValue: 2)
        public static let firesOnRecordDeletion = Options(rawValue: 4)
        public static let firesOnce = Options(rawValue: 8)
    }

    public let recordType: CKRecord.RecordType
    public let predicate: NSPredicate
    public let querySubscriptionOptions: Options
    /// Nil: every zone of the database.
    public var zoneID: CKRecordZone.ID?

    public init(
        recordType: CKRecord.RecordType, predicate: NSPredicate,
        subscriptionID: CKSubscription.ID,
        options querySubscriptionOptions: Options = [
            .firesOnRecordCreation, .firesOnRecordUpdate, .firesOnRecordDeletion,
        ]
    ) {
        self.recordType = recordType
        self.predicate = predicate
        self.querySubscriptionOptions = querySubscriptionOptions
        super.init(subscriptionID: subscriptionID, type: .query)
    }

    /// Apple's ID here is random; SyncLab's is `query-<record type>`, to stay deterministic.
    public convenience init(
        recordType: CKRecord.RecordType, predicate: NSPredicate,
        options querySubscriptionOptions: Options = [
            .firesOnRecordCreation, .firesOnRecordUpdate, .firesOnRecordDeletion,
        ]
    ) {
        self.init(recordType: recordType, predicate: predicate,
            subscriptionID: "query-" + recordType, options: querySubscriptionOptions)
    }

    convenience init(_ subscription: QuerySubscription, account: String?) {
        var options: Options = subscription.firesOnce ? [.firesOnce] : []
        if subscription.firesOnCreation { options.insert(.firesOnRecordCreation) }
        if subscription.firesOnUpdate { options.insert(.firesOnRecordUpdate) }
        if subscription.firesOnDeletion { options.insert(.firesOnRecordDeletion) }
        self.init(recordType: subscription.recordType,
            predicate: Self.predicate(for: subscription.predicate),
            subscriptionID: subscription.id, options: options)
        zoneID = subscription.zone.map { .of($0, account: account) }
        notificationInfo = subscription.notificationInfo.map(NotificationInfo.init(settings:))
    }

    override func simulated(account: String) -> CloudSim.Subscription? {
        guard let evaluated = Self.simulated(predicate) else { return nil }
        let options = querySubscriptionOptions
        return .query(QuerySubscription(
            id: subscriptionID, recordType: recordType,
            firesOnCreation: options.contains(.firesOnRecordCreation),
            firesOnUpdate: options.contains(.firesOnRecordUpdate),
            firesOnDeletion: options.contains(.firesOnRecordDeletion),
            zone: zoneID?.simulated(account: account), predicate: evaluated,
            firesOnce: options.contains(.firesOnce),
            notificationInfo: notificationInfo?.settings))
    }
}
