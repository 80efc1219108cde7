import Foundation

/// Apple's completion-handler calls of `CKDatabase`, as older code (and code that fires and
/// forgets) uses them: each starts a task of the calling device that makes the `async` call
/// and hands its result to the handler there.
extension CKDatabase {
    public func save(_ record: CKRecord,
                     completionHandler: @escaping (CKRecord?, (any Error)?) -> Void) {
        startCall("save(_:completionHandler:)") { database in
            do { completionHandler(try await database.save(record), nil) } catch {
                completionHandler(nil, error)
            }
        }
    }

    public func fetch(withRecordID recordID: CKRecord.ID,
                      completionHandler: @escaping (CKRecord?, (any Error)?) -> Void) {
        startCall("fetch(withRecordID:completionHandler:)") { database in
            do { completionHandler(try await database.record(for: recordID), nil) } catch {
                completionHandler(nil, error)
            }
        }
    }

    public func delete(withRecordID recordID: CKRecord.ID,
                       completionHandler: @escaping (CKRecord.ID?, (any Error)?) -> Void) {
        startCall("delete(withRecordID:completionHandler:)") { database in
            do { completionHandler(try await database.deleteRecord(withID: recordID), nil) } catch {
                completionHandler(nil, error)
            }
        }
    }

    public func save(_ zone: CKRecordZone,
                     completionHandler: @escaping (CKRecordZone?, (any Error)?) -> Void) {
        startCall("save(_:completionHandler:)") { database in
            do { completionHandler(try await database.save(zone), nil) } catch {
                completionHandler(nil, error)
            }
        }
    }

    public func delete(withRecordZoneID zoneID: CKRecordZone.ID,
                       completionHandler: @escaping (CKRecordZone.ID?, (any Error)?) -> Void) {
        startCall("delete(withRecordZoneID:completionHandler:)") { database in
            do {
                completionHandler(try await database.deleteRecordZone(withID: zoneID), nil)
            } catch {
                completionHandler(nil, error)
            }
        }
    }

    public func fetch(withRecordZoneID zoneID: CKRecordZone.ID,
                      completionHandler: @escaping (CKRecordZone?, (any Error)?) -> Void) {
        startCall("fetch(withRecordZoneID:completionHandler:)") { database in
            do { completionHandler(try await database.recordZone(for: zoneID), nil) } catch {
                completionHandler(nil, error)
            }
        }
    }

    public func fetchAllRecordZones(
        completionHandler: @escaping ([CKRecordZone]?, (any Error)?) -> Void
    ) {
        startCall("fetchAllRecordZones(completionHandler:)") { database in
            do { completionHandler(try await database.allRecordZones(), nil) } catch {
                completionHandler(nil, error)
            }
        }
    }

    public func save(_ subscription: CKSubscription,
                     completionHandler: @escaping (CKSubscription?, (any Error)?) -> Void) {
        startCall("save(_:completionHandler:)") { database in
            do { completionHandler(try await database.save(subscription), nil) } catch {
                completionHandler(nil, error)
            }
        }
    }

    public func fetch(withSubscriptionID subscriptionID: CKSubscription.ID,
                      completionHandler: @escaping (CKSubscription?, (any Error)?) -> Void) {
        startCall("fetch(withSubscriptionID:completionHandler:)") { database in
            do {
                completionHandler(try await database.subscription(for: subscriptionID), nil)
            } catch {
                completionHandler(nil, error)
            }
        }
    }

    public func fetchAllSubscriptions(
        completionHandler: @escaping ([CKSubscription]?, (any Error)?) -> Void
    ) {
        startCall("fetchAllSubscriptions(completionHandler:)") { database in
            do { completionHandler(try await database.allSubscriptions(), nil) } catch {
                completionHandler(nil, error)
            }
        }
    }

    public func delete(withSubscriptionID subscriptionID: CKSubscription.ID,
                       completionHandler: @escaping (String?, (any Error)?) -> Void) {
        startCall("delete(withSubscriptionID:completionHandler:)") { database in
            do {
                completionHandler(try await database.deleteSubscription(withID: subscriptionID),
                    nil)
            } catch {
                completionHandler(nil, error)
            }
        }
    }

    public func modifySubscriptions(
        saving subscriptionsToSave: [CKSubscription],
        deleting subscriptionIDsToDelete: [CKSubscription.ID],
        completionHandler: @escaping (Result<(
            saveResults: [CKSubscription.ID: Result<CKSubscription, any Error>],
            deleteResults: [CKSubscription.ID: Result<Void, any Error>]
        ), any Error>) -> Void
    ) {
        startCall("modifySubscriptions(saving:deleting:completionHandler:)") { database in
            do {
                completionHandler(.success(try await database.modifySubscriptions(
                    saving: subscriptionsToSave, deleting: subscriptionIDsToDelete)))
            } catch {
                completionHandler(.failure(error))
            }
        }
    }
}
