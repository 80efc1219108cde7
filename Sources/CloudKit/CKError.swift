import CloudSim
import Foundation

/// A CloudKit error (Apple's `CKError`): a code from Apple's list, and the user-info entries
/// Apple documents read through properties: the three records of a conflict, the retry
/// delay, and the per-item errors of a partial failure. It bridges to `NSError` as Apple's
/// does (domain `CKErrorDomain`, the code's raw value, the documented user-info keys;
/// CKError+Bridging.swift), and its codes match in `catch CKError.unknownItem`
/// (CKError+Code.swift).
public struct CKError: Error, Hashable, @unchecked Sendable, CustomStringConvertible {
    // `@unchecked`: the records it carries are immutable once the error is made.
    public static let errorDomain = CKErrorDomain

    public let code: Code
    public let serverRecord: CKRecord?
    public let clientRecord: CKRecord?
    public let ancestorRecord: CKRecord?
    /// Seconds to wait before retrying (`CKErrorRetryAfterKey`), when the server said.
    public let retryAfterSeconds: Double?
    /// The errors of the items that failed, by record ID or zone ID (`partialFailure`).
    public let partialErrorsByItemID: [AnyHashable: any Error]?
    /// The server's message (`NSLocalizedDescriptionKey`), when there is one.
    private let message: String?
    /// `CKErrorUserDidResetEncryptedDataKey`: Apple adds it to `zoneNotFound` only.
    private let userDidResetEncryptedData: Bool
    /// Entries of an app's own `userInfo` that no property reads, kept for `userInfo`.
    private let otherUserInfo: [String: Any]

    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        serverRecord = userInfo[CKRecordChangedErrorServerRecordKey] as? CKRecord
        clientRecord = userInfo[CKRecordChangedErrorClientRecordKey] as? CKRecord
        ancestorRecord = userInfo[CKRecordChangedErrorAncestorRecordKey] as? CKRecord
        retryAfterSeconds = (userInfo[CKErrorRetryAfterKey] as? NSNumber)?.doubleValue
            ?? userInfo[CKErrorRetryAfterKey] as? Double
        partialErrorsByItemID = userInfo[CKPartialErrorsByItemIDKey] as? [AnyHashable: any Error]
        message = userInfo[NSLocalizedDescriptionKey] as? String
        userDidResetEncryptedData =
            (userInfo[CKErrorUserDidResetEncryptedDataKey] as? NSNumber)?.boolValue
            ?? userInfo[CKErrorUserDidResetEncryptedDataKey] as? Bool ?? false
        otherUserInfo = userInfo.filter { !Self.propertyKeys.contains($0.key) }
    }

    init(_ error: CloudError, account: String?) {
        code = Code(rawValue: error.code.rawValue) ?? .internalError
        serverRecord = error.serverRecord.map { CKRecord.from($0, account: account) }
        clientRecord = error.clientRecord.map { CKRecord.from($0, account: account) }
        ancestorRecord = error.ancestorRecord.map { CKRecord.from($0, account: account) }
        retryAfterSeconds = error.retryAfter.map { Double($0.microseconds) / 1_000_000 }
        partialErrorsByItemID = nil
        message = error.message.isEmpty ? nil : error.message
        userDidResetEncryptedData = error.userDidResetEncryptedData
        otherUserInfo = [:]
    }

    init(partialFailure errors: [AnyHashable: any Error]) {
        code = .partialFailure
        serverRecord = nil
        clientRecord = nil
        ancestorRecord = nil
        retryAfterSeconds = nil
        partialErrorsByItemID = errors
        message = "Failed to modify some records"
        userDidResetEncryptedData = false
        otherUserInfo = [:]
    }

    /// The keys the properties read, so `userInfo` writes them from the properties.
    private static let propertyKeys: Set<String> = [
        CKRecordChangedErrorServerRecordKey, CKRecordChangedErrorClientRecordKey,
        CKRecordChangedErrorAncestorRecordKey, CKErrorRetryAfterKey, CKPartialErrorsByItemIDKey,
        NSLocalizedDescriptionKey, CKErrorUserDidResetEncryptedDataKey,
    ]

    public var errorCode: Int { code.rawValue }

    /// The server's message; without one, Foundation's text for the domain and code, as for
    /// Apple's error made without a description.
    public var localizedDescription: String {
        message ?? NSError(domain: Self.errorDomain, code: errorCode).localizedDescription
    }

    public var userInfo: [String: Any] {
        var info = otherUserInfo
        if let message { info[NSLocalizedDescriptionKey] = message }
        if let serverRecord { info[CKRecordChangedErrorServerRecordKey] = serverRecord }
        if let clientRecord { info[CKRecordChangedErrorClientRecordKey] = clientRecord }
        if let ancestorRecord { info[CKRecordChangedErrorAncestorRecordKey] = ancestorRecord }
        if let retryAfterSeconds { info[CKErrorRetryAfterKey] = NSNumber(value: retryAfterSeconds) }
        if let partialErrorsByItemID { info[CKPartialErrorsByItemIDKey] = partialErrorsByItemID }
        if userDidResetEncryptedData && code == .zoneNotFound {
            info[CKErrorUserDidResetEncryptedDataKey] = NSNumber(value: true)
        }
        return info
    }

    public var description: String { "CKError(\(code))" }

    public static func == (lhs: CKError, rhs: CKError) -> Bool {
        lhs.code == rhs.code && lhs.serverRecord == rhs.serverRecord
            && lhs.retryAfterSeconds == rhs.retryAfterSeconds && lhs.message == rhs.message
            && lhs.userDidResetEncryptedData == rhs.userDidResetEncryptedData
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }
}

/// The domain of CloudKit's errors.
public let CKErrorDomain = "CKErrorDomain"
/// An `NSNumber` of seconds to wait before retrying (on `serviceUnavailable`,
/// `requestRateLimited` and, here, `zoneBusy`).
public let CKErrorRetryAfterKey = "CKRetryAfter"
/// The errors of the items of a `partialFailure`, by item ID.
public let CKPartialErrorsByItemIDKey = "CKPartialErrors"
/// The server's record of a `serverRecordChanged`.
public let CKRecordChangedErrorServerRecordKey = "ServerRecord"
/// The record the client tried to save, of a `serverRecordChanged`.
public let CKRecordChangedErrorClientRecordKey = "ClientRecord"
/// The version the client's edit started from, of a `serverRecordChanged`.
public let CKRecordChangedErrorAncestorRecordKey = "AncestorRecord"
/// An `NSNumber` Boolean on a `zoneNotFound`: CloudKit deleted the zone because the user
/// reset their encrypted data.
public let CKErrorUserDidResetEncryptedDataKey = "CKErrorUserDidResetEncryptedDataKey"
