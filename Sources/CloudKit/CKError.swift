import CloudSim
import Foundation

/// A CloudKit error (Apple's `CKError`): a code from Apple's list, and the user-info entries
/// Apple documents read through properties: the three records of a conflict, the retry
/// delay, and the per-item errors of a partial failure.
public struct CKError: Error, Hashable, @unchecked Sendable, CustomStringConvertible {
    // `@unchecked`: the records it carries are immutable once the error is made.
    public static let errorDomain = "CKErrorDomain"

    public let code: Code
    public let serverRecord: CKRecord?
    public let clientRecord: CKRecord?
    public let ancestorRecord: CKRecord?
    /// Seconds to wait before retrying (`CKErrorRetryAfterKey`), when the server said.
    public let retryAfterSeconds: Double?
    /// The errors of the items that failed, by record ID or zone ID (`partialFailure`).
    public let partialErrorsByItemID: [AnyHashable: any Error]?
    /// The server's message, for people.
    public let localizedDescription: String

    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        serverRecord = userInfo[CKRecordChangedErrorServerRecordKey] as? CKRecord
        clientRecord = userInfo[CKRecordChangedErrorClientRecordKey] as? CKRecord
        ancestorRecord = userInfo[CKRecordChangedErrorAncestorRecordKey] as? CKRecord
        retryAfterSeconds = (userInfo[CKErrorRetryAfterKey] as? NSNumber)?.doubleValue
            ?? userInfo[CKErrorRetryAfterKey] as? Double
        partialErrorsByItemID = userInfo[CKPartialErrorsByItemIDKey] as? [AnyHashable: any Error]
        localizedDescription = userInfo[NSLocalizedDescriptionKey] as? String ?? "\(code)"
    }

    init(_ error: CloudError, account: String?) {
        code = Code(rawValue: error.code.rawValue) ?? .internalError
        serverRecord = error.serverRecord.map { CKRecord.from($0, account: account) }
        clientRecord = error.clientRecord.map { CKRecord.from($0, account: account) }
        ancestorRecord = error.ancestorRecord.map { CKRecord.from($0, account: account) }
        retryAfterSeconds = error.retryAfter.map { Double($0.microseconds) / 1_000_000 }
        partialErrorsByItemID = nil
        localizedDescription = error.message.isEmpty ? "\(code)" : error.message
    }

    init(partialFailure errors: [AnyHashable: any Error]) {
        code = .partialFailure
        serverRecord = nil
        clientRecord = nil
        ancestorRecord = nil
        retryAfterSeconds = nil
        partialErrorsByItemID = errors
        localizedDescription = "Failed to modify some records"
    }

    public var errorCode: Int { code.rawValue }

    public var userInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: localizedDescription]
        if let serverRecord { info[CKRecordChangedErrorServerRecordKey] = serverRecord }
        if let clientRecord { info[CKRecordChangedErrorClientRecordKey] = clientRecord }
        if let ancestorRecord { info[CKRecordChangedErrorAncestorRecordKey] = ancestorRecord }
        if let retryAfterSeconds { info[CKErrorRetryAfterKey] = NSNumber(value: retryAfterSeconds) }
        if let partialErrorsByItemID { info[CKPartialErrorsByItemIDKey] = partialErrorsByItemID }
        return info
    }

    public var description: String { "CKError(\(code))" }

    public static func == (lhs: CKError, rhs: CKError) -> Bool {
        lhs.code == rhs.code && lhs.serverRecord == rhs.serverRecord
            && lhs.retryAfterSeconds == rhs.retryAfterSeconds
            && lhs.localizedDescription == rhs.localizedDescription
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// Apple's error codes, with Apple's raw values.
    public enum Code: Int, Sendable, Hashable, CustomStringConvertible {
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

        public var description: String {
            CloudErrorCode(rawValue: rawValue)?.description ?? "code \(rawValue)"
        }
    }
}

public let CKErrorDomain = CKError.errorDomain
public let CKErrorRetryAfterKey = "CKRetryAfter"
public let CKPartialErrorsByItemIDKey = "CKPartialErrors"
public let CKRecordChangedErrorServerRecordKey = "ServerRecord"
public let CKRecordChangedErrorClientRecordKey = "ClientRecord"
public let CKRecordChangedErrorAncestorRecordKey = "AncestorRecord"
