/// The `CKError.Code` names (Apple's CKError.Code documentation) a scenario may make the cloud
/// answer.
///
/// `rawValue` is the name as written in a file; `code` is CloudKit's raw value.
public enum CloudKitErrorCode: String, Hashable, Sendable, CaseIterable {
    case internalError
    case partialFailure
    case networkUnavailable
    case networkFailure
    case badContainer
    case serviceUnavailable
    case requestRateLimited
    case missingEntitlement
    case notAuthenticated
    case permissionFailure
    case unknownItem
    case invalidArguments
    case resultsTruncated
    case serverRecordChanged
    case serverRejectedRequest
    case assetFileNotFound
    case assetFileModified
    case incompatibleVersion
    case constraintViolation
    case operationCancelled
    case changeTokenExpired
    case batchRequestFailed
    case zoneBusy
    case badDatabase
    case quotaExceeded
    case zoneNotFound
    case limitExceeded
    case userDeletedZone
    case tooManyParticipants
    case alreadyShared
    case referenceViolation
    case managedAccountRestricted
    case participantMayNeedVerification
    case serverResponseLost
    case assetNotAvailable
    case accountTemporarilyUnavailable
    case participantAlreadyInvited

    /// CloudKit's raw value: `internalError` is 1, in declaration order up to 37.
    public var code: Int {
        (Self.allCases.firstIndex(of: self) ?? 0) + 1
    }
}
