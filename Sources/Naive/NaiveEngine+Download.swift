import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

extension NaiveEngine {
    /// NAIVE-7 / NAIVE-10: `fetchDatabaseChanges` from the one token, then each changed zone.
    func startDownload(
        _ trigger: NaiveOperation.Trigger, waiter: WaiterID?, context: inout NaiveContext
    ) {
        let download = makeOperation(.download(NaiveDownload(
            trigger: trigger, waiter: waiter, previousDownloadStart: lastDownloadStart)))
        lastDownloadStart = context.now
        effects.append(.trace(kind: "download.started", details: [
            TraceField("operation", .int(Int64(download.number))),
            TraceField("trigger", .string(trigger.rawValue)),
            TraceField("token", context.syncData.databaseToken.map { .int($0.sequence) } ?? .null),
        ], rules: trigger == .sync ? ["NAIVE-10", "NAIVE-7"] : ["NAIVE-7"]))
        start(download, context: &context)
    }

    func downloadAnswered(
        _ response: CloudResponse, _ download: NaiveOperation,
        context: inout NaiveContext
    ) {
        let state = download.download
        switch response {
        case .databaseChanges(let changed, let deleted, let token, _):
            databaseChanges(changed: changed, deleted: deleted, token: token, download,
                            context: &context)
        case .zoneChanges(let records, _, let token, let moreComing):
            state.page = (records, token, moreComing)
            pass(["download.page.fetched"], then: .storePage, download, context: &context)
        case .failure(let error):
            downloadFailed(error, download, context: &context)
        default:
            effects.append(.trace(kind: "download.unexpected-answer", details: [], rules: []))
            pass(["sync.done"], then: .finish, download, context: &context)
        }
    }

    /// The database changes: deleted zones are printed (NAIVE-9); the token is saved before
    /// any zone is fetched (NAIVE-7, the window of NAIVEW-6); the app's completion runs.
    private func databaseChanges(
        changed: [ZoneID], deleted: [ZoneDeletion], token: DatabaseChangeToken,
        _ download: NaiveOperation, context: inout NaiveContext
    ) {
        let state = download.download
        for deletion in deleted {
            effects.append(.trace(kind: "zone.deleted-printed", details: [
                TraceField("zone", .string(deletion.zone.description)),
                TraceField("reason", .string(deletion.reason.rawValue)),
                TraceField("note", .string("the local data is kept")),
            ], rules: ["NAIVE-9"]))
        }
        context.syncData.databaseToken = token
        for zone in changed where !context.syncData.unfinishedZoneFetches.contains(zone) {
            context.syncData.unfinishedZoneFetches.append(zone)
        }
        writeSyncData(context)
        effects.append(.trace(kind: "db-token.saved", details: [
            TraceField("token", .int(token.sequence)),
            TraceField("changedZones", .list(changed.map { .string($0.description) })),
        ], rules: ["NAIVE-7"]))
        state.zones = changed
        state.zoneIndex = 0
        if isLiteral {
            // The default zone is never reported (NAIVE-15), and `fetchRecordChanges(in:)`
            // only logs the zones that are (NAIVE-16): nothing is downloaded.
            effects.append(.trace(kind: "download.nothing-fetched", details: [
                TraceField("loggedZones", .list(changed.map { .string($0.description) })),
            ], rules: ["NAIVE-15", "NAIVE-16"]))
            context.syncData.unfinishedZoneFetches.removeAll { changed.contains($0) }
            writeSyncData(context)
            state.zones = []
        }
        pass(["naive.db-token.saved"], then: .nextZone, download, context: &context)
    }

    /// The next changed zone, fetched from a nil token (NAIVE-8); or the end of the download.
    func nextZone(
        _ download: NaiveOperation, context: inout NaiveContext
    ) {
        let state = download.download
        guard state.zoneIndex < state.zones.count else {
            pass(["download.done", "upload.start", "upload.done", "sync.done"], then: .finish,
                 download, context: &context)
            return
        }
        let zone = state.zones[state.zoneIndex]
        state.zoneSeen = []
        state.zoneStartedAt = context.now
        state.pageToken = nil
        effects.append(.trace(kind: "zone-fetch.started", details: [
            TraceField("zone", .string(zone.description)),
            TraceField("token", .null),
        ], rules: ["NAIVE-8"]))
        pass(["naive.zone-fetch.start"], then: .afterPage, download, context: &context)
    }

    /// After a page (or at the start of a zone): the next page, or the zone is done.
    func afterPage(
        _ download: NaiveOperation, context: inout NaiveContext
    ) {
        let state = download.download
        let zone = state.zones[state.zoneIndex]
        if let page = state.page {
            state.page = nil
            guard page.moreComing else {
                zoneFetched(zone, download, context: &context)
                return
            }
            state.pageToken = page.token
        }
        send(.fetchZoneChanges(scope: .privateDatabase, zone: zone, token: state.pageToken,
                               resultsLimit: pageSize),
             for: download)
    }

    /// A zone fetch completed: models whose record this launch saw in iCloud and the complete
    /// fetch did not bring stay (NAIVEW-5).
    private func zoneFetched(
        _ zone: ZoneID, _ download: NaiveOperation, context: inout NaiveContext
    ) {
        let state = download.download
        hasCompletedZoneFetch = true
        var deleted: [String] = []
        var absent: [String] = []
        for name in context.syncData.bindings.sortedNames where !state.zoneSeen.contains(name) {
            guard let model = context.syncData.bindings.model(named: name),
                context.store.contains(model),
                  !reportedMissing.contains(name) else { continue }
            reportedMissing.insert(name)
            if let seen = seenInCloud[name], seen.zone == zone.name,
               seen.at < state.zoneStartedAt {
                deleted.append(name)
                seenInCloud[name] = nil
            } else {
                absent.append(name)
            }
        }
        if !deleted.isEmpty || !absent.isEmpty {
            effects.append(.trace(kind: "download.deletions-missed", details: [
                TraceField("deleted", .list(deleted.map { .string($0) })),
                TraceField("notInICloud", .list(absent.map { .string($0) })),
                TraceField("reason", .string("a fetch from a nil token brings no deletions: "
                    + "local models iCloud lacks stay")),
            ], rules: ["NAIVEW-5", "NAIVE-8"]))
        }
        context.syncData.unfinishedZoneFetches.removeAll { $0 == zone }
        writeSyncData(context)
        effects.append(.trace(kind: "zone-fetch.done", details: [
            TraceField("zone", .string(zone.description)),
            TraceField("records", .int(Int64(state.zoneSeen.count))),
        ], rules: ["NAIVE-8"]))
        state.zoneIndex += 1
        nextZone(download, context: &context)
    }

    private func downloadFailed(
        _ error: CloudError, _ download: NaiveOperation, context: inout NaiveContext
    ) {
        let state = download.download
        if let delay = Self.retryDelay(for: error) {
            traceRetry(error, delay: delay, download)
            pass(["naive.retry.scheduled", "sync.done"], then: .scheduleRetry(delay), download,
                 context: &context)
            return
        }
        guard case .fetchZoneChanges(_, let zone, _, _)? = download.lastRequest else {
            // The database fetch failed (NAIVE-11): the token stays as it is.
            var rules = ["NAIVE-11", "NAIVE-6"]
            if error.code == .changeTokenExpired { rules.append("NAIVEW-7") }
            traceDrop(error, download, rules: rules)
            pass(["naive.error.logged", "sync.done"], then: .finish, download,
                 context: &context)
            return
        }
        // A zone fetch failed after the database token was saved: its changes stay hidden.
        traceDrop(error, download, rules: ["NAIVE-6", "NAIVEW-6"])
        context.syncData.unfinishedZoneFetches.removeAll { $0 == zone }
        writeSyncData(context)
        state.page = nil
        state.zoneIndex += 1
        pass(["naive.error.logged"], then: .nextZone, download, context: &context)
    }
}
