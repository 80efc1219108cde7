import CloudSim
import Foundation

/// Apple's `CKSubscription`: what the server pushes the account's devices for. SyncLab
/// models `CKRecordZoneSubscription` through this facade.
open class CKSubscription: NSObject, @unchecked Sendable {
    // `@unchecked`: used on its device's thread only.
    public typealias ID = String
    public let subscriptionID: ID

    init(subscriptionID: ID) {
        self.subscriptionID = subscriptionID
    }
}

/// Apple's `CKRecordZoneSubscription`: a push to the account's other devices when any
/// record of the zone changes.
public final class CKRecordZoneSubscription: CKSubscription, @unchecked Sendable {
    public let zoneID: CKRecordZone.ID

    public init(zoneID: CKRecordZone.ID, subscriptionID: CKSubscription.ID) {
        self.zoneID = zoneID
        super.init(subscriptionID: subscriptionID)
    }

    /// Apple's default ID is random; SyncLab's is the zone's name, to stay deterministic.
    public convenience init(zoneID: CKRecordZone.ID) {
        self.init(zoneID: zoneID, subscriptionID: "zone-" + zoneID.zoneName)
    }
}

extension CKDatabase {
    /// Saves a subscription (Apple's `save(_:)` of a `CKSubscription`); the device then
    /// receives its pushes.
    @discardableResult
    public func save(_ subscription: CKSubscription) async throws -> CKSubscription {
        let runtime = try Self.runtime("save(_:)")
        guard let zoneSubscription = subscription as? CKRecordZoneSubscription else {
            throw CKError(.invalidArguments)
        }
        let zone = zoneSubscription.zoneID.simulated(account: runtime.account ?? "")
        let response = await runtime.request(.saveZoneSubscription(
            scope: databaseScope.simulated,
            ZoneSubscription(id: subscription.subscriptionID, zone: zone)))
        guard case .subscriptionSaved = response else { throw Self.error(response, runtime) }
        let saved = SavedZoneSubscription(
            account: runtime.account ?? "", id: subscription.subscriptionID, zone: zone)
        if databaseScope == .private, !runtime.container.zoneSubscriptions.contains(saved) {
            runtime.container.zoneSubscriptions.append(saved)
        }
        return subscription
    }

    /// Saves subscriptions one by one (Apple's `modifySubscriptions(saving:deleting:)`);
    /// deleting is not modelled (`invalidArguments` for each ID).
    public func modifySubscriptions(
        saving subscriptionsToSave: [CKSubscription],
        deleting subscriptionIDsToDelete: [CKSubscription.ID]
    ) async throws -> (
        saveResults: [CKSubscription.ID: Result<CKSubscription, any Error>],
        deleteResults: [CKSubscription.ID: Result<Void, any Error>]
    ) {
        var saved: [CKSubscription.ID: Result<CKSubscription, any Error>] = [:]
        for subscription in subscriptionsToSave { // tidy: ordered (an array)
            do {
                saved[subscription.subscriptionID] = .success(try await save(subscription))
            } catch {
                saved[subscription.subscriptionID] = .failure(error)
            }
        }
        var deleted: [CKSubscription.ID: Result<Void, any Error>] = [:]
        for id in subscriptionIDsToDelete { // tidy: ordered (an array)
            deleted[id] = .failure(CKError(.invalidArguments))
        }
        return (saved, deleted)
    }
}
