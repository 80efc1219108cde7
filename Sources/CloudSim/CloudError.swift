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
    public var serverRecord: CloudRecord? {
        get { records?.server }
        set { setRecords(server: newValue, client: clientRecord, ancestor: ancestorRecord) }
    }
    /// `CKRecordChangedErrorClientRecordKey`: the record the client tried to save, as sent.
    public var clientRecord: CloudRecord? {
        get { records?.client }
        set { setRecords(server: serverRecord, client: newValue, ancestor: ancestorRecord) }
    }
    /// `CKRecordChangedErrorAncestorRecordKey`: the server's version the client's edit started
    /// from (the version of the change tag it sent; a record without keys for the save of a
    /// new record; nil when that version is not known, e.g. a tag of an earlier life).
    public var ancestorRecord: CloudRecord? {
        get { records?.ancestor }
        set { setRecords(server: serverRecord, client: clientRecord, ancestor: newValue) }
    }
    /// `CKErrorUserDidResetEncryptedDataKey`: set on `zoneNotFound` for a zone CloudKit
    /// deleted because the user reset their encrypted data ([CKError] `zoneNotFound`: the
    /// app re-creates the zone and uploads its local copy; docs/CLOUDSIM.md *Faults*).
    public var userDidResetEncryptedData: Bool
    /// The three records in one box, nil when none is set (every error but the
    /// `serverRecordChanged` kind). An error sits inline in `CloudResponse`, hence in every
    /// engine and world event, and each switch, move or copy of an event copies it: the box
    /// takes one word where three inline `CloudRecord?` would take several hundred bytes.
    /// Never a box of three nils, so that a value has one representation.
    private var records: RecordsBox?

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
        self.userDidResetEncryptedData = userDidResetEncryptedData
        self.records = nil
        setRecords(server: serverRecord, client: clientRecord, ancestor: ancestorRecord)
    }

    /// Stores the three records, in a new box unless all are nil. The box is immutable
    /// (`indirect`): a set never changes a box another copy of the error shares.
    private mutating func setRecords(
        server: CloudRecord?, client: CloudRecord?, ancestor: CloudRecord?
    ) {
        // `case .none`, not `== nil`: comparing with nil goes through `Equatable`, copying
        // each record into a pair of optionals, for every error made (most have no records).
        if case .none = server, case .none = client, case .none = ancestor {
            records = nil
        } else {
            records = .records(server: server, client: client, ancestor: ancestor)
        }
    }

    // Equality and hashing written out in the order of the stored fields before the box
    // (code, retry-after, message, the three records, the flag): the same meaning, and the
    // same hash values, as the synthesized ones had.
    public static func == (lhs: CloudError, rhs: CloudError) -> Bool {
        lhs.code == rhs.code && lhs.retryAfter == rhs.retryAfter && lhs.message == rhs.message
            && lhs.serverRecord == rhs.serverRecord && lhs.clientRecord == rhs.clientRecord
            && lhs.ancestorRecord == rhs.ancestorRecord
            && lhs.userDidResetEncryptedData == rhs.userDidResetEncryptedData
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(retryAfter)
        hasher.combine(message)
        hasher.combine(serverRecord)
        hasher.combine(clientRecord)
        hasher.combine(ancestorRecord)
        hasher.combine(userDidResetEncryptedData)
    }

    public var description: String {
        // Built as UTF-8 in one buffer sized up front, from the parts' own texts, and made a
        // string once: an engine's failure notes read it often, and interpolation would grow
        // the text part by part, the code through its generic `description`.
        let name = code.description
        let retry = retryAfter?.description
        var bytes: [UInt8] = []
        bytes.reserveCapacity(
            name.utf8.count + message.utf8.count + (retry?.utf8.count ?? 0) + 64)
        bytes += name.utf8
        bytes += " (".utf8
        bytes += String(code.rawValue).utf8
        bytes += ")".utf8
        if !message.isEmpty {
            bytes += ": ".utf8
            bytes += message.utf8
        }
        if let retry {
            bytes += ", retry after ".utf8
            bytes += retry.utf8
        }
        if userDidResetEncryptedData { bytes += ", user did reset encrypted data".utf8 }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension CloudError {
    /// The records of a `serverRecordChanged`-style error, behind one reference (`indirect`):
    /// set rarely, copied with every copy of the error.
    private enum RecordsBox: Sendable {
        indirect case records(server: CloudRecord?, client: CloudRecord?, ancestor: CloudRecord?)

        var server: CloudRecord? {
            switch self { case .records(let server, _, _): server }
        }

        var client: CloudRecord? {
            switch self { case .records(_, let client, _): client }
        }

        var ancestor: CloudRecord? {
            switch self { case .records(_, _, let ancestor): ancestor }
        }
    }
}
