import Kernel

/// `CKError.Code`, with CloudKit's raw values ([CKError.Code]).
public enum CloudErrorCode: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case internalError = 1
    case partialFailure = 2
    case networkUnavailable = 3
    case networkFailure = 4
    case badContainer = 5
    case serviceUnavailable = 6
    case requestRateLimited = 7
    case missingEntitlement = 8
    case notAuthenticated = 9
    case permissionFailure = 10
    case unknownItem = 11
    case invalidArguments = 12
    case resultsTruncated = 13
    case serverRecordChanged = 14
    case serverRejectedRequest = 15
    case assetFileNotFound = 16
    case assetFileModified = 17
    case incompatibleVersion = 18
    case constraintViolation = 19
    case operationCancelled = 20
    case changeTokenExpired = 21
    case batchRequestFailed = 22
    case zoneBusy = 23
    case badDatabase = 24
    case quotaExceeded = 25
    case zoneNotFound = 26
    case limitExceeded = 27
    case userDeletedZone = 28
    case tooManyParticipants = 29
    case alreadyShared = 30
    case referenceViolation = 31
    case managedAccountRestricted = 32
    case participantMayNeedVerification = 33
    case serverResponseLost = 34
    case assetNotAvailable = 35
    case accountTemporarilyUnavailable = 36
    case participantAlreadyInvited = 37

    /// The Swift case name, as scenarios and traces spell it (`requestRateLimited`).
    public var description: String { Self.names[rawValue - 1] }

    /// Looks a code up by its Swift case name.
    public init?(name: String) {
        guard let index = Self.names.firstIndex(of: name) else { return nil }
        self.init(rawValue: index + 1)
    }

    /// The seven codes CKSyncEngine retries by itself ([CKSyncEngine]; docs/CLOUDSIM.md,
    /// *Apple's documentation cited here*).
    public var isTransient: Bool {
        switch self {
        case .notAuthenticated, .accountTemporarilyUnavailable, .networkFailure,
             .networkUnavailable, .requestRateLimited, .serviceUnavailable, .zoneBusy:
            return true
        default:
            return false
        }
    }

    private static let names = [
        "internalError", "partialFailure", "networkUnavailable", "networkFailure",
        "badContainer", "serviceUnavailable", "requestRateLimited", "missingEntitlement",
        "notAuthenticated", "permissionFailure", "unknownItem", "invalidArguments",
        "resultsTruncated", "serverRecordChanged", "serverRejectedRequest", "assetFileNotFound",
        "assetFileModified", "incompatibleVersion", "constraintViolation", "operationCancelled",
        "changeTokenExpired", "batchRequestFailed", "zoneBusy", "badDatabase", "quotaExceeded",
        "zoneNotFound", "limitExceeded", "userDeletedZone", "tooManyParticipants",
        "alreadyShared", "referenceViolation", "managedAccountRestricted",
        "participantMayNeedVerification", "serverResponseLost", "assetNotAvailable",
        "accountTemporarilyUnavailable", "participantAlreadyInvited",
    ]
}

/// An error as CloudKit reports it: a code, an optional retry-after, the server's message and,
/// for `serverRecordChanged`, the server's copy of the record.
public struct CloudError: Hashable, Sendable, CustomStringConvertible {
    public var code: CloudErrorCode
    /// `CKErrorRetryAfterKey`, as a span of simulated time.
    public var retryAfter: SimTime?
    public var message: String
    /// `CKRecordChangedErrorServerRecordKey` (asset contents are not sent with it).
    public var serverRecord: CloudRecord?
    /// `CKRecordChangedErrorClientRecordKey`: the record the client tried to save, as sent.
    public var clientRecord: CloudRecord?
    /// `CKRecordChangedErrorAncestorRecordKey`: the server's version the client's edit started
    /// from (the version of the change tag it sent; a record without keys for the save of a
    /// new record; nil when that version is not known, e.g. a tag of an earlier life).
    public var ancestorRecord: CloudRecord?
    /// `CKErrorUserDidResetEncryptedDataKey`: set on `zoneNotFound` for a zone CloudKit
    /// deleted because the user reset their encrypted data ([CKError] `zoneNotFound`: the
    /// app re-creates the zone and uploads its local copy; docs/CLOUDSIM.md *Faults*).
    public var userDidResetEncryptedData: Bool

    public init(
        _ code: CloudErrorCode,
        message: String = "",
        retryAfter: SimTime? = nil,
        serverRecord: CloudRecord? = nil,
        clientRecord: CloudRecord? = nil,
        ancestorRecord: CloudRecord? = nil,
        userDidResetEncryptedData: Bool = false
    ) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.serverRecord = serverRecord
        self.clientRecord = clientRecord
        self.ancestorRecord = ancestorRecord
        self.userDidResetEncryptedData = userDidResetEncryptedData
    }

    public var description: String {
        // Built in one buffer sized up front, from the parts' own texts (issue 19: an
        // engine's failure notes read it about 2,000 times a seed, and the interpolations
        // grew the text part by part, the code through its generic `description`).
        let name = code.description
        var text = ""
        text.reserveCapacity(name.utf8.count + message.utf8.count + 64)
        text += name
        text += " ("
        text += String(code.rawValue)
        text += ")"
        if !message.isEmpty {
            text += ": "
            text += message
        }
        if let retryAfter {
            text += ", retry after "
            text += retryAfter.description
        }
        if userDidResetEncryptedData { text += ", user did reset encrypted data" }
        return text
    }
}
