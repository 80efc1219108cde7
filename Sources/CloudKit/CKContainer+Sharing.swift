import CloudSim
import Foundation

extension CKContainer {
    /// The participant for a user found by email address, asked of the cloud: `unknownItem`
    /// when no account has it (in SyncLab an account's email address is its name). The
    /// permission starts read-only; set it before inviting.
    public func shareParticipant(forEmailAddress emailAddress: String) async throws
        -> CKShare.Participant {
        try await shareParticipant(for: CKUserIdentity.LookupInfo(emailAddress: emailAddress))
    }

    /// The participant for the user with this user record ID (Apple's
    /// `shareParticipant(forUserRecordID:)`), asked of the cloud: `unknownItem` when no
    /// account has it. The permission starts read-only; set it before inviting.
    public func shareParticipant(forUserRecordID userRecordID: CKRecord.ID) async throws
        -> CKShare.Participant {
        try await shareParticipant(for: CKUserIdentity.LookupInfo(userRecordID: userRecordID))
    }

    /// The participant a lookup names, asked of the cloud (`CKFetchShareParticipantsOperation`):
    /// `unknownItem` for an address or user record ID no account has, and a phone number.
    func shareParticipant(for lookupInfo: CKUserIdentity.LookupInfo) async throws
        -> CKShare.Participant {
        let runtime = try CKDatabase.runtime("shareParticipant(for:)")
        let response = await runtime.request(.lookUpUser(lookupInfo.simulated))
        guard case .sharingLookedUp(.userFound(let account)) = response else {
            throw CKDatabase.error(response, runtime)
        }
        return CKShare.Participant(account: account, role: .privateUser,
            permission: .readOnly, acceptanceStatus: .pending)
    }

    /// The metadata of the share at `url`, asked of the cloud: `unknownItem` when no live
    /// share has that URL; the user's role and status in the share come with it.
    public func shareMetadata(for url: URL) async throws -> CKShare.Metadata {
        try await fetchedShareMetadata(for: url, rootRecordKeys: nil)
    }

    /// The metadata of the share at `url` as the cloud answers it
    /// (`CKFetchShareMetadataOperation`), with the user's role and status in the share:
    /// `unknownItem` when no live share has that URL; with `rootRecordKeys`, the root of a
    /// hierarchy share with those fields (nil: every field), when the account may accept it.
    func fetchedShareMetadata(
        for url: URL, rootRecordKeys: [CKRecord.FieldKey]??
    ) async throws -> CKShare.Metadata {
        let runtime = try CKDatabase.runtime("fetchShareMetadata")
        let response = await runtime.request(.fetchShareMetadata(url: url.absoluteString,
            rootRecord: rootRecordKeys != nil))
        guard case .sharingLookedUp(.shareMetadataFetched(let fetched, let root)) = response else {
            throw CKDatabase.error(response, runtime)
        }
        let share = CKShare(shareID: CKRecord.ID(recordName: fetched.shareRecordName,
            zoneID: CKRecordZone.ID.of(fetched.zone, account: runtime.account)))
        share.url = url
        let metadata = CKShare.Metadata(share: share, zone: fetched.zone,
            containerIdentifier: containerIdentifier ?? "")
        metadata.participant = fetched.participant.map(CKShare.Participant.init)
        if case .some(let keys) = rootRecordKeys, let root {
            metadata.rootRecord = CKRecord.from(root, account: runtime.account).keepingOnly(keys)
        }
        return metadata
    }

    /// Accepts the share (`CKAcceptSharesOperation`): its records appear in the shared
    /// database; returns the share as the cloud keeps it.
    @discardableResult
    public func accept(_ metadata: CKShare.Metadata) async throws -> CKShare {
        let runtime = try CKDatabase.runtime("accept(_:)")
        let target = metadata.share.rootRecordName.map(ShareTarget.rootRecord) ?? .zone
        let response = await runtime.request(.share(zone: metadata.zone, target: target,
            action: .accept))
        guard case .shareModified(_, let records) = response,
            let stored = records.first(where: \.isShare)
        else { throw CKDatabase.error(response, runtime) }
        return CKShare(share: stored, account: runtime.account)
    }
}

extension CKShare {
    /// Apple's `CKShare.Metadata`: what a share URL tells before accepting.
    public final class Metadata: NSObject, @unchecked Sendable {
        public let share: CKShare
        /// The root of a hierarchy share; nil for a zone-wide one.
        public let hierarchicalRootRecordID: CKRecord.ID?
        public let containerIdentifier: String
        /// The root record of a hierarchy share, when fetched by a
        /// `CKFetchShareMetadataOperation` with `shouldFetchRootRecord`; nil otherwise.
        public internal(set) var rootRecord: CKRecord?
        public var participantRole: ParticipantRole {
            (share.currentUserParticipant ?? participant)?.role ?? .unknown
        }
        public var participantStatus: ParticipantAcceptanceStatus {
            (share.currentUserParticipant ?? participant)?.acceptanceStatus ?? .unknown
        }
        public var participantPermission: ParticipantPermission {
            (share.currentUserParticipant ?? participant)?.permission ?? .unknown
        }
        /// Who owns the shared zone.
        public var ownerIdentity: CKUserIdentity { CKUserIdentity(account: zone.owner) }
        /// The root record's ID; for a zone-wide share, which has none, the share's own.
        @available(*, deprecated, message: "Use hierarchicalRootRecordID instead")
        public var rootRecordID: CKRecord.ID { hierarchicalRootRecordID ?? share.recordID }
        let zone: ZoneID
        /// The user's entry as the cloud answered a metadata fetch; nil when read off a URL.
        var participant: CKShare.Participant?

        init(share: CKShare, zone: ZoneID, containerIdentifier: String) {
            self.share = share
            self.zone = zone
            hierarchicalRootRecordID = share.rootRecordName.map {
                CKRecord.ID(recordName: $0, zoneID: share.recordID.zoneID)
            }
            self.containerIdentifier = containerIdentifier
        }
    }
}
