import Kernel

/// Share URLs and `CKShare.Metadata`: what a participant's device learns from a share URL
/// before it accepts ([CKShare] `url`, [CKShare.Metadata], [CKAcceptSharesOperation];
/// docs/CLOUDSIM.md row 45).
///
/// Apple: a share's `url` exists once the share is saved and stays the same for one root
/// record across deletion and re-sharing; opening it gives the app the share's metadata
/// (the share, the root record's ID — nil for a zone-wide share —, the user's role, status
/// and permission, the owner), from which it accepts. SyncLab's URL is
/// `https://www.icloud.com/share/<owner>/<zone>/<share record name>`: deterministic, and
/// stable per root because the share steps name a root's share `Share-<root>`.
public struct ShareMetadata: Hashable, Sendable {
    public var url: String
    /// The share record's name (`CKShare.Metadata.share`).
    public var shareRecordName: String
    /// The owner zone holding the share, with the owner's account (`share.recordID.zoneID`).
    public var zone: ZoneID
    /// `hierarchicalRootRecordID`: nil for a zone-wide share.
    public var rootRecordName: String?
    /// The owner (`ownerIdentity`).
    public var owner: String { zone.owner }
    /// The requesting account's entry (`participantRole`, `participantStatus`,
    /// `participantPermission`); nil when it is not a participant (role and status unknown).
    public var participant: ShareParticipant?

    public init(
        url: String, shareRecordName: String, zone: ZoneID, rootRecordName: String?,
        participant: ShareParticipant?
    ) {
        self.url = url
        self.shareRecordName = shareRecordName
        self.zone = zone
        self.rootRecordName = rootRecordName
        self.participant = participant
    }

    /// What `acceptShare` (and `shareAction(.accept, …)`) is called with.
    public var target: ShareTarget { rootRecordName.map(ShareTarget.rootRecord) ?? .zone }
}

extension CloudService {
    /// The URL of a live share (`CKShare.url`).
    public static func shareURL(of share: ShareInfo) -> String {
        let zone = share.zone
        return "https://www.icloud.com/share/\(zone.owner)/\(zone.name)/\(share.shareRecordName)"
    }

    /// `CKFetchShareMetadataOperation`: the metadata of the live share at `url`, as the
    /// account sees it; nil when no live share has that URL (the share was stopped, its zone
    /// deleted, or the URL is unknown — CloudKit answers `unknownItem`). Accepting goes
    /// through `shareAction(.accept, on: metadata.target, in: metadata.zone, …)` or
    /// `acceptShare(metadata:by:now:)`, which judge the account (`permissionFailure` when it
    /// was never invited: no share has a public permission here).
    public func shareMetadata(url: String, for account: String) -> ShareMetadata? {
        for owner in accountStates.keys.sorted() {
            for share in shares(of: owner) where Self.shareURL(of: share) == url {
                return ShareMetadata(
                    url: url, shareRecordName: share.shareRecordName, zone: share.zone,
                    rootRecordName: share.rootRecordName, participant: share.participant(account))
            }
        }
        return nil
    }

    /// `CKFetchShareMetadataOperation` as a device asks it: the metadata of the live share at
    /// `url` (`unknownItem` when none has it) and, when `rootRecord`, the root of a hierarchy
    /// share for an account that may accept it: the owner, an invited participant not
    /// removed, anyone while the share is public ([CKFetchShareMetadataOperation]
    /// `shouldFetchRootRecord`). **Choice:** an account that could not accept gets no root.
    func fetchShareMetadata(url: String, rootRecord: Bool, account: String) -> CloudOutcome {
        guard let metadata = shareMetadata(url: url, for: account) else {
            return CloudOutcome(response: .failure(CloudError(.unknownItem,
                message: "Share not found")))
        }
        var root: CloudRecord?
        if rootRecord, let name = metadata.rootRecordName, mayAccept(metadata, account) {
            root = liveZoneState(metadata.zone)?.records[name]?.record
        }
        return CloudOutcome(
            response: .sharingLookedUp(.shareMetadataFetched(metadata, rootRecord: root)))
    }

    /// Whether the account is the share's owner, an invited participant not removed, or may
    /// join the public share.
    private func mayAccept(_ metadata: ShareMetadata, _ account: String) -> Bool {
        if metadata.owner == account { return true }
        if let participant = metadata.participant {
            // A removed public participant may join again while the share is public.
            if participant.acceptanceStatus != .removed { return true }
            if participant.role != .publicUser { return false }
        }
        let share = shares(of: metadata.owner).first {
            $0.zone == metadata.zone && $0.shareRecordName == metadata.shareRecordName
        }
        return (share?.publicPermission ?? .none) != .none
    }

    /// `CKAcceptSharesOperation` with the metadata of a share URL: the `accept` step on the
    /// share it names (hierarchy or zone-wide).
    public func acceptShare(
        metadata: ShareMetadata, by client: CloudClient, now: SimTime
    ) -> CloudOutcome {
        shareAction(.accept, on: metadata.target, in: metadata.zone, by: client, now: now)
    }
}
