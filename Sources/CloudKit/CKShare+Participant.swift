import CloudSim
import Foundation

extension CKShare {
    /// `CKShare.ParticipantRole`, with Apple's raw values.
    public enum ParticipantRole: Int, Sendable, Hashable {
        case unknown = 0
        case owner = 1
        case administrator = 2
        case privateUser = 3
        case publicUser = 4
    }

    /// `CKShare.ParticipantAcceptanceStatus`, with Apple's raw values.
    public enum ParticipantAcceptanceStatus: Int, Sendable, Hashable {
        case unknown = 0
        case pending = 1
        case accepted = 2
        case removed = 3
    }

    /// `CKShare.ParticipantPermission`, with Apple's raw values.
    public enum ParticipantPermission: Int, Sendable, Hashable {
        case unknown = 0
        case none = 1
        case readOnly = 2
        case readWrite = 3
    }

    /// `CKShare.SystemFieldKey`: the share's own fields.
    public enum SystemFieldKey {
        public static let title: CKRecord.FieldKey = "cloudkit.title"
        public static let thumbnailImageData: CKRecord.FieldKey = "cloudkit.thumbnailImageData"
        public static let shareType: CKRecord.FieldKey = "cloudkit.type"
    }

    /// One participant of a share: a user identity with a role, a permission and an
    /// acceptance status.
    open class Participant: NSObject, @unchecked Sendable {
        // `@unchecked`: used on its device's thread only.
        public let userIdentity: CKUserIdentity
        /// `privateUser`, or `administrator` (set by the owner before `addParticipant(_:)`).
        public var role: ParticipantRole
        /// What the owner grants; set it before `addParticipant(_:)`.
        public var permission: ParticipantPermission
        public internal(set) var acceptanceStatus: ParticipantAcceptanceStatus
        /// The simulated account behind the identity.
        let account: String

        init(account: String, role: ParticipantRole, permission: ParticipantPermission,
            acceptanceStatus: ParticipantAcceptanceStatus) {
            self.account = account
            userIdentity = CKUserIdentity(account: account)
            self.role = role
            self.permission = permission
            self.acceptanceStatus = acceptanceStatus
        }

        convenience init(_ participant: ShareParticipant) {
            self.init(account: participant.account,
                role: ParticipantRole(rawValue: participant.role.rawValue) ?? .unknown,
                permission: ParticipantPermission(rawValue: participant.permission.rawValue)
                    ?? .unknown,
                acceptanceStatus: ParticipantAcceptanceStatus(
                    rawValue: participant.acceptanceStatus.rawValue) ?? .unknown)
        }
    }
}

/// Apple's `CKUserIdentity`: who a participant is. In SyncLab an account's email address is
/// its name (`bob`), which `CKContainer.shareParticipant(forEmailAddress:)` looks up.
open class CKUserIdentity: NSObject, @unchecked Sendable {
    public let userRecordID: CKRecord.ID?
    public let lookupInfo: LookupInfo?
    public let hasiCloudAccount: Bool
    public let nameComponents: PersonNameComponents?

    init(account: String) {
        userRecordID = CKRecord.ID(recordName: CloudService.userRecordName(for: account))
        lookupInfo = LookupInfo(emailAddress: account)
        hasiCloudAccount = true
        nameComponents = nil
    }

    /// How a user is looked up: by email address (the account's name here), phone number
    /// (no SyncLab account has one) or user record ID. Equal when they name the same way.
    open class LookupInfo: NSObject, @unchecked Sendable {
        public let emailAddress: String?
        public let phoneNumber: String?
        public let userRecordID: CKRecord.ID?

        public init(emailAddress: String) {
            self.emailAddress = emailAddress
            phoneNumber = nil
            userRecordID = nil
        }

        public init(phoneNumber: String) {
            emailAddress = nil
            self.phoneNumber = phoneNumber
            userRecordID = nil
        }

        public init(userRecordID: CKRecord.ID) {
            emailAddress = nil
            phoneNumber = nil
            self.userRecordID = userRecordID
        }

        open override func isEqual(_ object: Any?) -> Bool {
            guard let other = object as? LookupInfo else { return false }
            return emailAddress == other.emailAddress && phoneNumber == other.phoneNumber
                && userRecordID == other.userRecordID
        }

        open override var hash: Int {
            var hasher = Hasher()
            hasher.combine(emailAddress)
            hasher.combine(phoneNumber)
            hasher.combine(userRecordID)
            return hasher.finalize()
        }

        /// What the cloud is asked.
        var simulated: UserLookup {
            if let emailAddress { return .emailAddress(emailAddress) }
            if let phoneNumber { return .phoneNumber(phoneNumber) }
            return .userRecordName(userRecordID?.recordName ?? "")
        }
    }
}
