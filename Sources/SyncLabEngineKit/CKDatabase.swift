import CloudSim
import Kernel
import SyncContract

/// `CKDatabase`'s operations, in Apple's `async` shape, for what an engine does beside
/// CKSyncEngine (fetch a record by ID, save with a policy of its own): each call sends one
/// request through the device and suspends the task until the answer arrives, at a later
/// simulated time, on the kernel's executor. Results are per item, in request order (Apple's
/// dictionaries); an operation-level error is thrown. Call it from the app's own code
/// (`storeDidSave`), not from inside a delegate callback, and within one zone per call.
public final class CKDatabase: @unchecked Sendable {
    // `@unchecked`: used only on the kernel executor (one job at a time), which `check()` enforces.
    let host: HostCore
    public let databaseScope: DatabaseScope

    init(host: HostCore, scope: DatabaseScope) {
        self.host = host
        databaseScope = scope
    }

    /// `modifyRecords(saving:deleting:savePolicy:atomically:)` in one zone.
    public func modifyRecords(
        inZone zone: ZoneID, saving: [RecordSave], deleting: [String],
        savePolicy: SavePolicy = .ifServerRecordUnchanged, atomically: Bool = true
    ) async throws(DatabaseError) -> [ItemResult] {
        let response = try await send("modifyRecords", .modifyRecords(
            scope: databaseScope, zone: zone, saves: saving, deletes: deleting, policy: savePolicy,
            atomic: atomically))
        guard case .recordsModified(let results) = response else { throw DatabaseError(response) }
        return results
    }

    /// `records(for:)`: the records of these names in one zone, each found or failed
    /// (`unknownItem`).
    public func records(inZone zone: ZoneID, named names: [String]) async throws(DatabaseError) -> [ItemResult] {
        let response = try await send("records(for:)", .fetchRecords(scope: databaseScope, zone: zone, names: names))
        guard case .recordsFetched(let results) = response else { throw DatabaseError(response) }
        return results
    }

    func send(_ call: String, _ request: CloudRequest) async throws(DatabaseError) -> CloudResponse {
        if !host.executor.isCurrent {
            host.fail("the engine called CKDatabase outside the simulation's executor")
        }
        guard host.enterOperation("database.\(call)") else { throw DatabaseError(.failure(CloudError(.internalError))) }
        let response = await host.request(request)
        if case .failure = response { throw DatabaseError(response) }
        return response
    }
}

/// An operation-level error of a `CKDatabase` call: the cloud's error (`CloudError`, with its
/// `code`, `retryAfter` and `serverRecord`).
public struct DatabaseError: Error, Hashable, Sendable {
    public var error: CloudError

    init(_ response: CloudResponse) {
        if case .failure(let error) = response {
            self.error = error
        } else {
            self.error = CloudError(.internalError)
        }
    }
}
