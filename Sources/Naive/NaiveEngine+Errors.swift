import CloudSim
import Kernel
import SyncContract

extension NaiveEngine {
    /// The article's `handleCloudKitError` (NAIVE-6): the retry-after of a transient error
    /// (`zoneBusy`, `serviceUnavailable`, `requestRateLimited`; 3 s if it names none), or nil:
    /// every other code is printed and dropped.
    static func retryDelay(for error: CloudError) -> SimTime? {
        switch error.code {
        case .zoneBusy, .serviceUnavailable, .requestRateLimited:
            return error.retryAfter ?? defaultRetryAfter
        default:
            return nil
        }
    }

    func traceRetry(
        _ error: CloudError, delay: SimTime, _ operation: NaiveOperation
    ) {
        effects.append(.trace(kind: "error.retry", details: [
            TraceField("operation", .int(Int64(operation.number))),
            TraceField("error", .string(error.code.description)),
            TraceField("retryAfter", .int(delay.microseconds)),
        ], rules: ["NAIVE-6"]))
    }

    /// "Unhandled CloudKit error": printed, and the operation is dropped.
    func traceDrop(
        _ error: CloudError, _ operation: NaiveOperation, rules: [String]
    ) {
        var details = [
            TraceField("operation", .int(Int64(operation.number))),
            TraceField("error", .string(error.code.description)),
        ]
        if let recordName = operation.recordName, !recordName.isEmpty {
            details.append(TraceField("recordName", .string(recordName)))
        }
        effects.append(.trace(kind: "error.dropped", details: details, rules: rules))
    }

    /// The rules a dropped save or delete shows, besides NAIVE-6.
    func uploadDropRules(_ error: CloudError, context: NaiveContext) -> [String] {
        switch error.code {
        case .networkUnavailable, .networkFailure:
            return ["NAIVEW-3"]
        case .quotaExceeded, .permissionFailure:
            return ["NAIVEW-9"]
        case .limitExceeded:
            return ["NAIVE-13", "NAIVEW-9"]
        case .notAuthenticated:
            return isLiteral ? ["NAIVE-12"] : ["NAIVE-12", "NAIVEW-9"]
        case .serverRecordChanged where isLiteral:
            // A freshly built record collides with its own earlier version (NAIVE-17).
            return ["NAIVE-17"]
        case .zoneNotFound:
            // After an account switch the new account's zone was never created (NAIVE-12);
            // before this launch found or created the zone, it is not there yet: the save went
            // out at once, ahead of the launch's setup (NAIVE-2, NAIVE-5); otherwise another
            // device deleted it (NAIVEW-11). The switch's drop leaves nothing to show for it
            // (NAIVEW-9), as a signed-out one does.
            if context.account != launchAccount {
                return isLiteral ? ["NAIVE-12"] : ["NAIVE-12", "NAIVEW-9"]
            }
            return hasZone ? ["NAIVEW-11"] : ["NAIVE-2", "NAIVE-DR-1"]
        case .userDeletedZone:
            // The user purged the zone: as after a deletion elsewhere, iCloud stays empty while
            // the devices keep their data (NAIVEW-11), and no relaunch creates it again.
            return ["NAIVEW-11"]
        default:
            // Every other drop leaves nothing to show for it either (NAIVEW-9's choice); the
            // literal code's catalogue has no weaknesses of its own.
            return isLiteral ? [] : ["NAIVEW-9"]
        }
    }
}
