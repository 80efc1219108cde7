import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// `CKError` is Apple's bridged error: `as NSError` gives `CKErrorDomain`, the code's raw value
/// and the documented user-info keys; an `NSError` of that domain casts back; a code matches
/// in `catch CKError.unknownItem`; and the simulated cloud's errors carry what it said.
@Suite struct CKErrorBridgingTests {
    static let zoneID = CKRecordZone.ID(zoneName: "Notes")

    @Test func anErrorAsNSErrorHasCloudKitsDomainAndCode() {
        let error: any Error = CKError(.unknownItem)
        let bridged = error as NSError
        #expect(bridged.domain == "CKErrorDomain")
        #expect(bridged.domain == CKErrorDomain)
        #expect(bridged.code == 11)
        #expect(bridged.userInfo.isEmpty)
        #expect(error.localizedDescription == bridged.localizedDescription)
        #expect(!error.localizedDescription.contains("CloudKit.CKError"))
        #expect((CKError(.zoneNotFound) as NSError).code == 26)
        #expect((CKError(.serverRecordChanged) as NSError).code == 14)
    }

    @Test func theRetryDelayAndTheMessageReadBackThroughTheUserInfo() throws {
        let error: any Error = CKError(.requestRateLimited,
            userInfo: [CKErrorRetryAfterKey: 5.5, NSLocalizedDescriptionKey: "Slow down"])
        let bridged = error as NSError
        #expect(bridged.code == 7)
        #expect((bridged.userInfo[CKErrorRetryAfterKey] as? NSNumber)?.doubleValue == 5.5)
        #expect(bridged.userInfo[NSLocalizedDescriptionKey] as? String == "Slow down")
        #expect(bridged.localizedDescription == "Slow down")
        #expect(error.localizedDescription == "Slow down")
        let back = try #require(bridged as Error as? CKError)
        #expect(back.retryAfterSeconds == 5.5)
    }

    @Test func thePartialErrorsReadBackThroughTheUserInfo() throws {
        let recordID = CKRecord.ID(recordName: "n1", zoneID: Self.zoneID)
        let error: any Error = CKError(.partialFailure,
            userInfo: [CKPartialErrorsByItemIDKey: [recordID: CKError(.unknownItem)]])
        let bridged = error as NSError
        #expect(bridged.code == 2)
        let partial = try #require(
            bridged.userInfo[CKPartialErrorsByItemIDKey] as? [AnyHashable: any Error])
        #expect((partial[recordID] as? CKError)?.code == .unknownItem)
        #expect((partial[recordID].map { $0 as NSError })?.code == 11)
        let back = try #require(bridged as Error as? CKError)
        #expect((back.partialErrorsByItemID?[recordID] as? CKError)?.code == .unknownItem)
    }

    @Test func anNSErrorOfCloudKitsDomainCastsToCKError() throws {
        let error = NSError(domain: CKErrorDomain, code: 11,
            userInfo: [NSLocalizedDescriptionKey: "Record not found"])
        let cast = try #require(error as Error as? CKError)
        #expect(cast.code == .unknownItem)
        #expect(cast.localizedDescription == "Record not found")
        #expect((NSError(domain: CKErrorDomain, code: 26) as Error as? CKError)?.code
            == .zoneNotFound)
        #expect(NSError(domain: NSCocoaErrorDomain, code: 11) as Error as? CKError == nil)
    }

    @Test func aCodeMatchesInCatchAndInIfCase() {
        func caught(_ error: any Error) -> String {
            do { throw error } catch CKError.unknownItem {
                return "unknownItem"
            } catch CKError.zoneNotFound {
                return "zoneNotFound"
            } catch {
                return "other"
            }
        }
        #expect(caught(CKError(.unknownItem)) == "unknownItem")
        #expect(caught(NSError(domain: CKErrorDomain, code: 26)) == "zoneNotFound")
        #expect(caught(CKError(.networkFailure)) == "other")
        let error: any Error = CKError(.zoneNotFound)
        var matched = false
        if case CKError.zoneNotFound = error { matched = true }
        #expect(matched)
        #expect(CKError.unknownItem == CKError.Code.unknownItem)
    }

    /// The simulated cloud's `unknownItem` is caught by its code, with the server's message.
    @Test func aMissingRecordIsCaughtAsUnknownItem() throws {
        let world = try SimulatedWorld(seed: 3, devices: [("phone", "alice")])
        let caught = try world.device("phone").run { () -> String in
            let database = CKContainer(identifier: "iCloud.test.errors").privateCloudDatabase
            _ = try await database.modifyRecordZones(
                saving: [CKRecordZone(zoneID: Self.zoneID)], deleting: [])
            do {
                _ = try await database.record(
                    for: CKRecord.ID(recordName: "missing", zoneID: Self.zoneID))
                return "no error"
            } catch CKError.unknownItem {
                return "unknownItem"
            }
        }
        #expect(caught == "unknownItem")
    }
}
