import CloudSim
import History
import Kernel
import Testing

/// The recovery policy table and the error mapping as data (HIS-26..HIS-33).
@Suite struct HistoryRecoveryTests {
    @Test func everySyncErrorHasExactlyOneRow() {
        let errors = HistoryRecovery.table.map(\.error)
        #expect(errors == HistorySyncError.allCases)
    }

    @Test func theMappingFollowsHIS33() {
        func mapped(_ code: CloudErrorCode, perItem: Bool = false) -> HistorySyncError {
            HistoryRecovery.syncError(CloudError(code, message: ""), perItem: perItem)
        }
        #expect(mapped(.notAuthenticated) == .authenticationFailed)
        #expect(mapped(.accountTemporarilyUnavailable) == .authenticationFailed)
        #expect(mapped(.networkFailure) == .networkUnavailable)
        #expect(mapped(.networkUnavailable) == .networkUnavailable)
        #expect(mapped(.requestRateLimited) == .rateLimited)
        #expect(mapped(.zoneBusy) == .rateLimited)
        #expect(mapped(.serviceUnavailable) == .serviceUnavailable)
        #expect(mapped(.requestRateLimited, perItem: true) == .partialFailure)
        #expect(mapped(.limitExceeded, perItem: true) == .partialFailure)
        #expect(mapped(.quotaExceeded) == .quotaExceeded)
        #expect(mapped(.zoneNotFound) == .zoneNotFound)
        #expect(mapped(.userDeletedZone) == .userDeletedZone)
        #expect(mapped(.changeTokenExpired) == .changeTokenExpired)
        #expect(mapped(.permissionFailure) == .unknown)
    }

    @Test func pausesFollowHIS29AndHIS30() {
        let rate = HistoryRecovery.row(for: .rateLimited)
        let outage = HistoryRecovery.row(for: .serviceUnavailable)
        #expect(HistoryRecovery.pause(rate, retryAfter: .seconds(7)) == .seconds(7))
        #expect(HistoryRecovery.pause(rate, retryAfter: nil) == .seconds(60))
        #expect(HistoryRecovery.pause(outage, retryAfter: .seconds(5)) == .seconds(60))
        #expect(HistoryRecovery.row(for: .partialFailure).action == .reportError)
        #expect(HistoryRecovery.row(for: .userDeletedZone).action == .purgeAndRebuild)
    }
}
