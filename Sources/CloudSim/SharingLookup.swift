/// What the cloud answers a sharing lookup made before any share step: who a user lookup
/// names, or the metadata at a share URL.
public enum SharingLookup: Hashable, Sendable {
    /// `.lookUpUser`: the account the lookup names.
    case userFound(account: String)
    /// `.fetchShareMetadata`: the metadata, and the root record when asked for and the
    /// account may see it.
    case shareMetadataFetched(ShareMetadata, rootRecord: CloudRecord?)
}
