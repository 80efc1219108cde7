import CloudSim
import Kernel

/// The seed's `SyncError`: what CloudKit's errors become before the recovery policy reads
/// them (HIS-33).
public enum HistorySyncError: String, CaseIterable, Sendable {
    case changeTokenExpired
    case userDeletedZone
    case zoneNotFound
    case rateLimited
    case serviceUnavailable
    case networkUnavailable
    case authenticationFailed
    case quotaExceeded
    case partialFailure
    case unknown
}

/// What the recovery policy does about an error (the seed's `RecoveryAction`).
public enum HistoryRecoveryAction: String, Sendable {
    /// HIS-26: reset that token (every token when no zone is named), then pull again.
    case resetTokenAndRetry
    /// HIS-27: clear the sync data, reset the tokens, create the zone, upload everything.
    case purgeAndRebuild
    /// HIS-28: run setup again, then upload every local model.
    case rebuildZone
    /// HIS-29, HIS-30: pause pushes; when the pause ends, push, then pull.
    case backoff
    /// HIS-31: mark the engine offline and wait for the network (HIS-14).
    case waitForNetwork
    /// HIS-32: report an error event; nothing recovers automatically.
    case reportError
}

/// The recovery policy table as data: one row per `SyncError`, with its action, its pause
/// and the rule that decides it. `synclab rules --engine history` prints it.
public struct HistoryRecoveryRow: Sendable {
    public let error: HistorySyncError
    public let action: HistoryRecoveryAction
    /// The pause of a backoff: nil for no pause; `usesRetryAfter`: the error's retry-after,
    /// this when it names none.
    public let pause: SimTime?
    public let usesRetryAfter: Bool
    public let rule: String
}

/// One line of the CloudKit → `SyncError` mapping (HIS-33).
public struct HistoryErrorMapping: Sendable {
    public let codes: [CloudErrorCode]
    /// For a per-item error (inside a `partialFailure`) rather than an operation's.
    public let perItem: Bool
    public let error: HistorySyncError
}

public enum HistoryRecovery {
    /// The tutorial's recovery table (HIS-26..HIS-32), in its order.
    public static let table: [HistoryRecoveryRow] = [
        HistoryRecoveryRow(error: .changeTokenExpired, action: .resetTokenAndRetry, pause: nil,
                           usesRetryAfter: false, rule: "HIS-26"),
        HistoryRecoveryRow(error: .userDeletedZone, action: .purgeAndRebuild, pause: nil,
                           usesRetryAfter: false, rule: "HIS-27"),
        HistoryRecoveryRow(error: .zoneNotFound, action: .rebuildZone, pause: nil,
                           usesRetryAfter: false, rule: "HIS-28"),
        HistoryRecoveryRow(error: .rateLimited, action: .backoff, pause: .seconds(60),
                           usesRetryAfter: true, rule: "HIS-29"),
        HistoryRecoveryRow(error: .serviceUnavailable, action: .backoff, pause: .seconds(60),
                           usesRetryAfter: false, rule: "HIS-30"),
        HistoryRecoveryRow(error: .networkUnavailable, action: .waitForNetwork, pause: nil,
                           usesRetryAfter: false, rule: "HIS-31"),
        HistoryRecoveryRow(error: .authenticationFailed, action: .reportError, pause: nil,
                           usesRetryAfter: false, rule: "HIS-32"),
        HistoryRecoveryRow(error: .quotaExceeded, action: .reportError, pause: nil,
                           usesRetryAfter: false, rule: "HIS-32"),
        HistoryRecoveryRow(error: .partialFailure, action: .reportError, pause: nil,
                           usesRetryAfter: false, rule: "HIS-32"),
        HistoryRecoveryRow(error: .unknown, action: .reportError, pause: nil,
                           usesRetryAfter: false, rule: "HIS-32"),
    ]

    /// HIS-33, in order; the first line that names a code decides, everything else is
    /// `unknown`.
    public static let mapping: [HistoryErrorMapping] = [
        HistoryErrorMapping(codes: [.notAuthenticated, .accountTemporarilyUnavailable],
            perItem: false,
                            error: .authenticationFailed),
        HistoryErrorMapping(codes: [.networkFailure, .networkUnavailable], perItem: false,
                            error: .networkUnavailable),
        HistoryErrorMapping(codes: [.requestRateLimited, .zoneBusy], perItem: false,
            error: .rateLimited),
        HistoryErrorMapping(codes: [.serviceUnavailable], perItem: false,
            error: .serviceUnavailable),
        HistoryErrorMapping(codes: [.quotaExceeded], perItem: false, error: .quotaExceeded),
        HistoryErrorMapping(codes: [.zoneNotFound], perItem: false, error: .zoneNotFound),
        HistoryErrorMapping(codes: [.userDeletedZone], perItem: false, error: .userDeletedZone),
        HistoryErrorMapping(codes: [.changeTokenExpired], perItem: false,
            error: .changeTokenExpired),
    ]

    /// HIS-33: an operation's error as `SyncError`; any per-item error is `partialFailure`.
    public static func syncError(_ error: CloudError, perItem: Bool = false) -> HistorySyncError {
        if perItem || error.code == .partialFailure { return .partialFailure }
        return mapping.first { $0.codes.contains(error.code) }?.error ?? .unknown
    }

    public static func row(for error: HistorySyncError) -> HistoryRecoveryRow {
        guard let row = table.first(where: { $0.error == error }) else {
            preconditionFailure("the recovery table has no row for \(error)")
        }
        return row
    }

    /// The pause of a backoff row for an error (HIS-29: its retry-after, 60 s when nil;
    /// HIS-30: 60 s whatever it says).
    public static func pause(_ row: HistoryRecoveryRow, retryAfter: SimTime?) -> SimTime {
        let fixed = row.pause ?? .zero
        return row.usesRetryAfter ? (retryAfter ?? fixed) : fixed
    }

    /// The table as `synclab rules` prints it: a header, then one line per row.
    public static var printed: [String] {
        var lines = ["SyncError → action (pause) — rule"]
        for row in table {
            let pause: String
            switch (row.pause, row.usesRetryAfter) {
            case (let fixed?, true): pause = " (the retry-after, \(fixed) when none)"
            case (let fixed?, false): pause = " (\(fixed), whatever the retry-after)"
            default: pause = ""
            }
            lines.append("\(row.error.rawValue) → \(row.action.rawValue)\(pause) — \(row.rule)")
        }
        lines.append("")
        lines.append("CloudKit error → SyncError — HIS-33")
        for line in mapping {
            lines.append(line.codes.map(\.description).joined(separator: ", ") + " → "
                + "" + line.error.rawValue)
        }
        lines.append("any per-item error (inside partialFailure) → partialFailure")
        lines.append("every other code → unknown")
        return lines
    }
}
