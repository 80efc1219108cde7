import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

extension MirrorEngine {
    /// MIR-5 / MIR-20 / MIR-21: the account's status, its user record name (a change resets
    /// sync), then the zone and the database subscription when they are not set up yet.
    func setupNext(
        _ request: MirrorRequest, _ setup: MirrorRequest.SetupWork, context: inout MirrorContext
    ) {
        switch setup.call {
        case .accountStatus:
            send(.accountStatus, for: request)
        case .userRecordID:
            send(.fetchUserRecordID, for: request)
        case .createZone:
            send(.modifyZones(scope: .privateDatabase, save: [zone(context)], delete: []),
                 for: request)
        case .subscribe:
            send(.saveDatabaseSubscription(scope: .privateDatabase), for: request)
        case .done:
            effects.append(.trace(kind: "setup.done", details: [
                TraceField("zone", .string(zone(context).description)),
            ], rules: ["MIR-5"]))
            setUpAccount = context.account
            failureCleared()
            let sharable = mirroredEntities.filter(\.isSharable).map(\.name)
            if !sharable.isEmpty {
                effects.append(.trace(kind: "sharing.unavailable", details: [
                    TraceField("entities", .list(sharable.map { .string($0) })),
                    TraceField("note", .string("ModelConfiguration offers no shared database")),
                ], rules: ["MIRW-9", "MIR-24"]))
            }
            pass(["mirror.setup.done", "download.start", "download.done", "upload.start",
                "upload.done",
                  "sync.done"], then: .finish, request, context: &context)
        }
    }

    func setupAnswered(
        _ response: CloudResponse, _ request: MirrorRequest, _ setup: MirrorRequest.SetupWork,
        context: inout MirrorContext
    ) {
        switch (setup.call, response) {
        case (.accountStatus, .accountStatus(let status)):
            accountStatusAnswered(status, request, setup, context: &context)
            return
        case (.userRecordID, .userRecordID(let name)):
            userRecordAnswered(name, context: &context)
            setup.call = context.syncData.isSetUp ? .done : .createZone
        case (.createZone, .zonesModified):
            setup.call = .subscribe
        case (.subscribe, .subscriptionSaved):
            context.syncData.isSetUp = true
            effects.append(.write(DiskWrite(syncData: SyncDataBox(context.syncData))))
            effects.append(.trace(kind: "zone.created", details: [
                TraceField("zone", .string(zone(context).description)),
                TraceField("subscription", .string("database")),
            ], rules: ["MIR-5", "MIR-4"]))
            setup.call = .done
        case (_, .failure(let error)):
            requestFailed(error, request, context: &context)
            return
        default:
            effects.append(.trace(kind: "setup.unexpected-answer", details: [], rules: []))
            setup.call = .done
        }
        setupNext(request, setup, context: &context)
    }

    private func accountStatusAnswered(
        _ status: AccountStatus, _ request: MirrorRequest, _ setup: MirrorRequest.SetupWork,
        context: inout MirrorContext
    ) {
        switch status {
        case .available:
            setup.call = .userRecordID
            setupNext(request, setup, context: &context)
        case .noAccount:
            // MIR-20: a logout deletes the mirrored rows; nothing runs until an account is back.
            if context.syncData.userRecordName != nil {
                reset(reason: "AccountLogout", rules: ["MIR-20", "MIRW-4"], deleteRows: true,
                      context: &context)
                context.syncData.userRecordName = nil
                writeAll(context)
            }
            effects.append(.trace(kind: "setup.no-account", details: [], rules: ["MIR-20"]))
            if !supersededByAccountChange(setup) {
                accountWait = .signedOut
                runner.dropQueued()
            }
            abandon(request, context: &context)
        default:
            // MIR-21: restricted or temporarily unavailable: 134400, nothing reset, setup
            // again when the account changes.
            effects.append(.trace(kind: "setup.failed", details: [
                TraceField("domain", .string("NSCocoaErrorDomain")),
                TraceField("code", .int(134400)),
                TraceField("message", .string("Unable to initialize without a valid iCloud account "
                    + "(CKAccountStatus\(Self.statusName(status))).")),
            ], rules: ["MIR-21"]))
            if !supersededByAccountChange(setup) {
                accountWait = .unusableAccount
                runner.dropQueued()
            }
            abandon(request, context: &context)
        }
    }

    /// MIR-6: an account change that came while this setup's check was in flight queued a
    /// setup of its own behind it; that one must run when this one ends, so the stale answer
    /// neither blocks the queue nor empties it.
    private func supersededByAccountChange(_ setup: MirrorRequest.SetupWork) -> Bool {
        guard setup.accountChangesAtStart != accountChanges else { return false }
        // The new account's setup goes before the import and export queued with it (MIR-9).
        runner.moveToFront([.setup])
        effects.append(.trace(kind: "setup.superseded", details: [
            TraceField("queued", .list(runner.queued.map { .string($0.rawValue) })),
            TraceField("note", .string("the account changed while its status was asked: "
                + "the setup deferred behind this one runs next")),
        ], rules: ["MIR-6", "MIR-20"]))
        return true
    }

    /// MIR-DR-3: the app saved while signed into another account, and the device is back on
    /// the account of the last setup before a check saw the switch: nothing was reset, so
    /// those saves are exported into this account.
    private func noteUnseenSwitch(context: MirrorContext) {
        defer { savedUnderOtherAccounts = [] }
        guard !savedUnderOtherAccounts.isEmpty, context.account == setUpAccount else { return }
        effects.append(.trace(kind: "setup.switch-unseen", details: [
            TraceField("account", context.account.map { .string($0) } ?? .null),
            TraceField("savedUnder", .list(savedUnderOtherAccounts.map { .string($0) })),
            TraceField("note", .string("saves made under those accounts are exported here")),
        ], rules: ["MIR-DR-3", "MIR-20"]))
    }

    static func statusName(_ status: AccountStatus) -> String {
        let name = status.description
        return name.prefix(1).uppercased() + name.dropFirst()
    }

    /// MIR-20: the stored user record name against the account's; a change resets sync.
    private func userRecordAnswered(
        _ name: String, context: inout MirrorContext
    ) {
        let stored = context.syncData.userRecordName
        if stored == name {
            noteUnseenSwitch(context: context)
            return
        }
        if stored == nil {
            noteUnseenSwitch(context: context)
        }
        savedUnderOtherAccounts = []
        if let stored {
            _ = stored
            reset(reason: "AccountChange", rules: ["MIR-20", "MIRW-4"], deleteRows: true,
                  context: &context)
        } else if context.syncData.hadAccount {
            reset(reason: "AccountLogin", rules: ["MIR-20"], deleteRows: false,
                  context: &context)
        } else if context.syncData.exportedThrough == 0, context.store.lastHistoryPosition > 0 {
            // MIR-29: mirroring turned on over an existing store: the first export sends
            // every object.
            context.syncData.reexport = synchronizedModels(context.store)
            effects.append(.trace(kind: "mirroring.first-export", details: [
                TraceField("objects", .int(Int64(context.syncData.reexport.count))),
            ], rules: ["MIR-29"]))
        }
        context.syncData.userRecordName = name
        context.syncData.hadAccount = true
        writeAll(context)
    }

    /// The request ends without doing its work; its probe points still pass.
    func abandon(
        _ request: MirrorRequest, context: inout MirrorContext
    ) {
        let probes: [String]
        switch request.kind {
        case .setup: probes = ["download.start", "download.done", "upload.start", "upload.done",
            "sync.done"]
        case .import: probes = ["download.done", "mirror.import.done", "upload.start",
            "upload.done", "sync.done"]
        case .export, .initializeSchema: probes = ["upload.done", "sync.done"]
        }
        pass(probes, then: .finish, request, context: &context)
    }
}
