import Kernel

/// The simulated CloudKit container: every account's databases, zones and records.
///
/// A pure state machine: the world hands it a request at the moment the request arrives and
/// gets back the answer, the pushes to send and notes for the trace. Latency, push delivery
/// and drops are the world's business, not the cloud's.
public final class CloudService {
    public private(set) var configuration: CloudConfiguration

    public init(configuration: CloudConfiguration) {
        self.configuration = configuration
    }

    /// Handles one request at its arrival time.
    public func handle(_ request: CloudRequest, from client: CloudClient, now: SimTime) -> CloudOutcome {
        preconditionFailure("CloudService.handle is not implemented yet")
    }

    // MARK: Inspection (expectations, reports, checkers)

    /// The account names, sorted.
    public var accountNames: [String] { configuration.accounts.sorted() }

    /// The live records of a zone, sorted by record name; empty when the zone does not exist.
    public func records(in zone: ZoneID) -> [CloudRecord] {
        preconditionFailure("not implemented yet")
    }

    /// One live record by name.
    public func record(named name: String, in zone: ZoneID) -> CloudRecord? {
        preconditionFailure("not implemented yet")
    }

    /// The zones of an account's private database, sorted.
    public func zones(of account: String) -> [ZoneID] {
        preconditionFailure("not implemented yet")
    }

    /// The app's main zone of an account (`configuration.appZoneName`).
    public func appZone(of account: String) -> ZoneID {
        ZoneID(owner: account, name: configuration.appZoneName)
    }

    // MARK: Scripted faults (the `cloud:` actions of the scenario format)

    /// `throttle ACCOUNT for D`: every request of the account fails `requestRateLimited`
    /// with retry-after = the rest of the window.
    public func throttle(account: String, until end: SimTime) {
        preconditionFailure("not implemented yet")
    }

    /// `throttle ACCOUNT next-upload N records retry-after D`.
    public func throttleNextUpload(account: String, records count: Int, retryAfter: SimTime) {
        preconditionFailure("not implemented yet")
    }

    /// `quota ACCOUNT full|ok`.
    public func setQuotaFull(account: String, _ full: Bool) {
        preconditionFailure("not implemented yet")
    }

    /// `delete-zone ACCOUNT`: the app zone is deleted as by another device (reason deleted).
    public func deleteZone(account: String, now: SimTime) -> CloudOutcome {
        preconditionFailure("not implemented yet")
    }

    /// `user-delete-zone ACCOUNT`: purged in settings; `userDeletedZone` until re-created.
    public func userDeleteZone(account: String, now: SimTime) -> CloudOutcome {
        preconditionFailure("not implemented yet")
    }

    /// `expire-tokens ACCOUNT`: every token handed out so far fails `changeTokenExpired`.
    public func expireTokens(account: String) {
        preconditionFailure("not implemented yet")
    }

    /// `outage for D`: every request fails `serviceUnavailable`, retry-after = the rest.
    public func outage(until end: SimTime) {
        preconditionFailure("not implemented yet")
    }

    /// `reject LABEL with CODE`: saves of that record fail until `accept`.
    public func reject(recordName: String, account: String, with code: CloudErrorCode) {
        preconditionFailure("not implemented yet")
    }

    /// `accept LABEL`.
    public func accept(recordName: String, account: String) {
        preconditionFailure("not implemented yet")
    }

    /// `environment development|production`.
    public func setEnvironment(_ environment: CloudEnvironment) {
        preconditionFailure("not implemented yet")
    }

    /// `deploy-schema`: copies the development schema to production.
    public func deploySchema() {
        preconditionFailure("not implemented yet")
    }
}
