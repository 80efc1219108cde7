import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// Apple's sharing operations on the driver: the owner finds a participant with
/// `CKFetchShareParticipantsOperation` and shares; the participant's device reads the URL with
/// `CKFetchShareMetadataOperation`, accepts with `CKAcceptSharesOperation` and reads the
/// records in its shared database. A failed item reaches its per-item block and makes the
/// result a `partialFailure`.
@Suite struct ShareOperationTests {
    static let container = CKContainer(identifier: "iCloud.test.shareops")
    static let zoneID = CKRecordZone.ID(zoneName: "Lists")
    static let missing = URL(string: "https://www.icloud.com/share/alice/Lists/Share-nothing")!
    static let unreadable = URL(string: "https://www.icloud.com/share/nothing")!

    struct Failure: Error {}

    /// What the blocks saw, in the order they ran, and the values carried between steps.
    final class Log: @unchecked Sendable {
        var lines: [String] = []
        var metadatas: [CKShare.Metadata] = []
        var participants: [CKShare.Participant] = []
    }

    static func code(_ error: any Error) -> String {
        (error as? CKError).map { "\($0.code)" } ?? "\(error)"
    }

    /// `partialFailure` and the failed items, described by `describe`, sorted.
    static func outcome(_ result: Result<Void, any Error>,
                        _ describe: (AnyHashable) -> String) -> String {
        guard case .failure(let error) = result else { return "success" }
        let items = (error as? CKError)?.partialErrorsByItemID ?? [:]
        // tidy: ordered (sorted below)
        let failed = items.map { "\(describe($0.key)) \(code($0.value))" }.sorted()
        return "\(code(error)) [\(failed.joined(separator: ", "))]"
    }

    /// Alice's phone looks bob up (and two unknown users), then shares its list with him
    /// (read-write); returns the share's URL.
    func share(on phone: SimulatedDevice, in world: SimulatedWorld, log: Log) throws -> URL {
        try phone.run {
            let lookups = [CKUserIdentity.LookupInfo(emailAddress: "bob"),
                           CKUserIdentity.LookupInfo(emailAddress: "zed"),
                           CKUserIdentity.LookupInfo(phoneNumber: "+15555550100")]
            let operation = CKFetchShareParticipantsOperation(userIdentityLookupInfos: lookups)
            operation.perShareParticipantResultBlock = { info, result in
                let name = info.emailAddress ?? info.phoneNumber ?? "?"
                switch result {
                case .success(let participant):
                    log.participants.append(participant)
                    log.lines.append("participant \(name) "
                        + (participant.userIdentity.lookupInfo?.emailAddress ?? "?"))
                case .failure(let error):
                    log.lines.append("participant \(name) \(Self.code(error))")
                }
            }
            operation.fetchShareParticipantsResultBlock = { result in
                log.lines.append("participants " + Self.outcome(result) { key in
                    let info = key.base as? CKUserIdentity.LookupInfo
                    return info?.emailAddress ?? info?.phoneNumber ?? "\(key)"
                })
            }
            Self.container.add(operation)
        }
        try world.settle()
        return try phone.run {
            let database = Self.container.privateCloudDatabase
            try await database.save(CKRecordZone(zoneID: Self.zoneID))
            let root = CKRecord(recordType: "List",
                recordID: CKRecord.ID(recordName: "groceries", zoneID: Self.zoneID))
            root["title"] = "Groceries"
            let share = CKShare(rootRecord: root)
            for participant in log.participants {
                participant.permission = .readWrite
                share.addParticipant(participant)
            }
            let results = try await database.modifyRecords(saving: [root, share], deleting: [])
            guard let saved = try results.saveResults[share.recordID]?.get() as? CKShare,
                let url = saved.url else { throw Failure() }
            return url
        }
    }

    /// Fetches the metadata of `urls` on `device` with `shouldFetchRootRecord`.
    func fetchMetadata(_ urls: [URL], on device: SimulatedDevice, in world: SimulatedWorld,
                       log: Log) throws {
        try device.run {
            let operation = CKFetchShareMetadataOperation(shareURLs: urls)
            operation.shouldFetchRootRecord = true
            operation.rootRecordDesiredKeys = ["title"]
            operation.perShareMetadataResultBlock = { url, result in
                switch result {
                case .success(let metadata):
                    log.metadatas.append(metadata)
                    let root = metadata.rootRecord?["title"] as? String ?? "nil"
                    log.lines.append("metadata \(url.lastPathComponent) "
                        + "\(metadata.hierarchicalRootRecordID?.recordName ?? "-") root \(root)"
                        + " \(metadata.participantRole.rawValue):"
                        + "\(metadata.participantStatus.rawValue):"
                        + "\(metadata.participantPermission.rawValue) owner "
                        + (metadata.ownerIdentity.lookupInfo?.emailAddress ?? "-"))
                case .failure(let error):
                    log.lines.append("metadata \(url.lastPathComponent) \(Self.code(error))")
                }
            }
            operation.fetchShareMetadataResultBlock = { result in
                log.lines.append("fetched " + Self.outcome(result) {
                    ($0.base as? URL)?.lastPathComponent ?? "\($0)"
                })
            }
            operation.completionBlock = { log.lines.append("completion") }
            Self.container.add(operation)
        }
        try world.settle()
    }

    /// Accepts `metadatas` on `device` with one operation.
    func accept(_ metadatas: [CKShare.Metadata], on device: SimulatedDevice,
                in world: SimulatedWorld, log: Log) throws {
        try device.run {
            let operation = CKAcceptSharesOperation(shareMetadatas: metadatas)
            operation.perShareResultBlock = { metadata, result in
                let name = metadata.share.recordID.recordName
                switch result {
                case .success(let share):
                    log.lines.append("accepted \(name) "
                        + "\(share.currentUserParticipant?.acceptanceStatus == .accepted)")
                case .failure(let error):
                    log.lines.append("accepted \(name) \(Self.code(error))")
                }
            }
            operation.acceptSharesResultBlock = { result in
                log.lines.append("accept " + Self.outcome(result) {
                    ($0.base as? URL)?.lastPathComponent ?? "\($0)"
                })
            }
            Self.container.add(operation)
        }
        try world.settle()
    }

    /// The whole story on a new world; the blocks' lines and the run's trace.
    func shareAndAccept(seed: UInt64) throws -> (lines: [String], trace: String) {
        let world = try SimulatedWorld(seed: seed, devices: [("phone", "alice"),
                                                             ("laptop", "bob")])
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let log = Log()
        let url = try share(on: phone, in: world, log: log)
        log.lines.append(url.absoluteString)
        try fetchMetadata([url, Self.unreadable, Self.missing], on: laptop, in: world, log: log)
        try accept(log.metadatas, on: laptop, in: world, log: log)
        log.metadatas = []
        try fetchMetadata([url], on: laptop, in: world, log: log)
        let title = try laptop.run { () -> String? in
            let shared = Self.container.sharedCloudDatabase
            let zones = try await shared.allRecordZones()
            guard let zone = zones.first(where: { $0.zoneID.zoneName == "Lists" }) else {
                return nil
            }
            let record = try await shared.record(for: CKRecord.ID(recordName: "groceries",
                zoneID: zone.zoneID))
            return record["title"] as? String
        }
        log.lines.append("shared \(title ?? "nil")")
        return (log.lines, world.traceJSONLines)
    }

    @Test func aParticipantFetchesMetadataAcceptsAndReadsTheRecords() throws {
        let (lines, _) = try shareAndAccept(seed: 1)
        #expect(lines == [
            "participant bob bob", "participant zed unknownItem",
            "participant +15555550100 unknownItem",
            "participants partialFailure [+15555550100 unknownItem, zed unknownItem]",
            "https://www.icloud.com/share/alice/Lists/Share-groceries",
            "metadata Share-groceries groceries root Groceries 3:1:3 owner alice",
            "metadata nothing unknownItem", "metadata Share-nothing unknownItem",
            "fetched partialFailure [Share-nothing unknownItem, nothing unknownItem]",
            "completion",
            "accepted Share-groceries true", "accept success",
            "metadata Share-groceries groceries root Groceries 3:2:3 owner alice",
            "fetched success",
            "completion",
            "shared Groceries",
        ])
    }

    /// Carol was not invited: her metadata has no root, and accepting fails for her share only.
    @Test func aStrangerGetsNoRootAndCannotAccept() throws {
        let world = try SimulatedWorld(seed: 1, devices: [
            ("phone", "alice"), ("laptop", "bob"), ("tablet", "carol"),
        ])
        let log = Log()
        let url = try share(on: world.device("phone"), in: world, log: log)
        log.lines = []
        let tablet = world.device("tablet")
        try fetchMetadata([url], on: tablet, in: world, log: log)
        try accept(log.metadatas, on: tablet, in: world, log: log)
        #expect(log.lines == [
            "metadata Share-groceries groceries root nil 0:0:0 owner alice", "fetched success",
            "completion",
            "accepted Share-groceries permissionFailure",
            "accept partialFailure [Share-groceries permissionFailure]",
        ])
    }

    @Test func theSameSeedGivesTheSameTrace() throws {
        let first = try shareAndAccept(seed: 7)
        let second = try shareAndAccept(seed: 7)
        #expect(first.lines == second.lines)
        #expect(first.trace.contains("\"lookUpUser\""))
        #expect(first.trace.contains("\"fetchShareMetadata\""))
        #expect(first.trace == second.trace)
    }

    @Test func aCancelledSharingOperationEndsWithOperationCancelledAndSendsNothing() throws {
        let world = try SimulatedWorld(seed: 2, devices: [("phone", "alice")])
        let log = Log()
        try world.device("phone").run {
            let operation = CKFetchShareParticipantsOperation(
                userIdentityLookupInfos: [CKUserIdentity.LookupInfo(emailAddress: "alice")])
            operation.perShareParticipantResultBlock = { _, _ in log.lines.append("item") }
            operation.fetchShareParticipantsResultBlock = { result in
                log.lines.append("participants " + Self.outcome(result) { "\($0)" })
            }
            Self.container.add(operation)
            operation.cancel()
        }
        try world.settle()
        #expect(log.lines == ["participants operationCancelled []"])
        #expect(!world.traceJSONLines.contains("\"lookUpUser\""))
    }

    /// The completion-handler forms and `shareParticipant(forUserRecordID:)`: bob's user
    /// record ID names bob, an unknown one gives nil and `unknownItem`.
    @Test func completionHandlersFindParticipantsAndAccept() throws {
        let world = try SimulatedWorld(seed: 3, devices: [("phone", "alice"), ("laptop", "bob")])
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let log = Log()
        let url = try share(on: phone, in: world, log: log)
        let bobID = try laptop.run { try await Self.container.userRecordID() }
        log.lines = []
        try phone.run {
            let name = { (participant: CKShare.Participant?) in
                participant?.userIdentity.lookupInfo?.emailAddress ?? "nil"
            }
            Self.container.fetchShareParticipant(withEmailAddress: "bob") { participant, error in
                log.lines.append("email \(name(participant)) \(error.map(Self.code) ?? "-")")
            }
            Self.container.fetchShareParticipant(withUserRecordID: bobID) { participant, error in
                log.lines.append("id \(name(participant)) \(error.map(Self.code) ?? "-")")
            }
            Self.container.fetchShareParticipant(withUserRecordID: CKRecord.ID(
                recordName: "_nobody")) { participant, error in
                log.lines.append("unknown \(name(participant)) \(error.map(Self.code) ?? "-")")
            }
        }
        try world.settle()
        let found = try phone.run {
            try await Self.container.shareParticipant(forUserRecordID: bobID)
                .userIdentity.lookupInfo?.emailAddress
        }
        #expect(found == "bob")
        try laptop.run {
            Self.container.fetchShareMetadata(with: url) { metadata, _ in
                guard let metadata else { return log.lines.append("no metadata") }
                Self.container.accept(metadata) { share, error in
                    let status = share?.currentUserParticipant?.acceptanceStatus
                    let code = error.map(Self.code) ?? "-"
                    log.lines.append("accepted \(status == .accepted) \(code)")
                }
            }
        }
        try world.settle()
        #expect(log.lines == ["email bob -", "id bob -", "unknown nil unknownItem",
                              "accepted true -"])
    }
}
