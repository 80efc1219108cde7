import CloudSim
import Kernel
import LocalStore

extension SDSEngine {
    /// Routes an answer to the step of the running synchronization that waits for it.
    func handleResponse(
        _ id: RequestID,
        _ response: CloudResponse,
        context: inout EngineContext,
        effects: inout [EngineEffect]
    ) {
        guard var current = run, current.awaiting == id else {
            effects.append(.trace(kind: "response.ignored", details: [TraceField("request", .string(id.description))], rules: []))
            return
        }
        current.awaiting = nil
        if case .failure(let error) = response, current.step != .uploadAnswered {
            handleFailure(error, &current, context: &context, effects: &effects)
            run = current
            advance(context: &context, effects: &effects)
            return
        }
        switch current.step {
        case .checkAccount:
            handleAccountStatus(response, &current, context: &context, effects: &effects)
        case .ensureZone:
            context.syncData.zoneCreated = true
            current.step = .ensureSubscription
        case .ensureSubscription:
            context.syncData.subscribed = true
            current.step = .downloadStart
        case .fetchPage:
            if case .zoneChanges(let records, let deletions, let token, let moreComing) = response {
                let page = DownloadPage(records: records, deletions: deletions, token: token, moreComing: moreComing)
                current.step = .pageFetched(page)
            }
        case .uploadAnswered:
            handleUploadAnswer(response, &current, context: &context, effects: &effects)
            if current.step == .uploadAnswered {
                pass("upload.done", then: .uploadBatch, &current, &effects)
            }
        default:
            effects.append(.trace(kind: "response.unexpected", details: [], rules: []))
        }
        run = current
        advance(context: &context, effects: &effects)
    }

    private func handleAccountStatus(
        _ response: CloudResponse,
        _ current: inout SyncRun,
        context: inout EngineContext,
        effects: inout [EngineEffect]
    ) {
        guard case .accountStatus(let status) = response, status == .available, let account = context.account else {
            abortRun(&current, error: CloudError(.notAuthenticated, message: "no iCloud account"), context: &context, effects: &effects)
            return
        }
        accountChecked = true
        if context.syncData.account != account {
            if context.syncData.account != nil {
                startOverWithAccount(account, context: &context, effects: &effects)
            }
            context.syncData.account = account
        }
        effects.append(.trace(
            kind: "account.checked",
            details: [TraceField("account", .string(account))],
            rules: ["HDO-2"]
        ))
        current.step = .ensureZone
    }

    /// Forgets what belonged to the previous account's iCloud data (its tokens and zone).
    private func startOverWithAccount(_ account: String, context: inout EngineContext, effects: inout [EngineEffect]) {
        context.syncData.databaseToken = nil
        context.syncData.zoneToken = nil
        context.syncData.zoneCreated = false
        context.syncData.subscribed = false
        context.syncData.hasDownloadedOnce = false
        context.syncData.changeTags = [:]
        effects.append(.trace(kind: "account.switched", details: [TraceField("account", .string(account))], rules: []))
    }

    /// An operation-level error during a step that is not an upload.
    private func handleFailure(
        _ error: CloudError,
        _ current: inout SyncRun,
        context: inout EngineContext,
        effects: inout [EngineEffect]
    ) {
        switch (current.step, error.code) {
        case (.fetchPage, .zoneNotFound):
            context.syncData.zoneCreated = false
            context.syncData.zoneToken = nil
            effects.append(.trace(kind: "zone.missing", details: [], rules: []))
            current.step = .ensureZone
        case (.fetchPage, .changeTokenExpired):
            context.syncData.zoneToken = nil
            effects.append(.trace(kind: "token.expired", details: [], rules: []))
            current.step = .fetchPage
        default:
            if case .fetchPage = current.step { current.downloadFailed = true }
            abortRun(&current, error: error, context: &context, effects: &effects)
        }
    }
}
