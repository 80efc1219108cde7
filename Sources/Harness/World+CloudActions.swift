import CloudSim
import Device
import Kernel
import Scenario

extension World {
    /// A written duration as simulated time (any size: callers add it saturating).
    private func span(_ duration: Located<TimeSpan>) -> SimTime {
        SimTime(microseconds: duration.value.microseconds)
    }

    /// Runs a `cloud:` action: a scripted fault or a change of the network.
    func perform(_ statement: CloudActionStatement) {
        record("script", "cloud.action", [
            TraceField("line", .int(Int64(currentLine))),
            TraceField("action", .string(Self.name(of: statement.action))),
        ])
        switch statement.action {
        case .throttle(let account, let duration):
            cloud.throttle(account: account.value, until: now.adding(span(duration)))
        case .throttleNextUpload(let account, let records, let retryAfter):
            cloud.throttleNextUpload(
                account: account.value,
                records: records.value,
                retryAfter: SimTime(microseconds: retryAfter.value.microseconds)
            )
        case .throttleNextDeletes(let account, let deletes, let retryAfter):
            cloud.throttleNextDeletes(
                account: account.value,
                records: deletes.value,
                retryAfter: SimTime(microseconds: retryAfter.value.microseconds)
            )
        case .quota(let account, let full):
            cloud.setQuotaFull(account: account.value, full)
        case .deleteZone(let account):
            let outcome = cloud.deleteZone(account: account.value, now: now)
            applyNotes(outcome.notes)
            sendPushes(outcome.pushes)
        case .userDeleteZone(let account):
            reportPurge(of: cloud.zones(of: account.value))
            let outcome = cloud.userDeleteZone(account: account.value, now: now)
            applyNotes(outcome.notes)
            sendPushes(outcome.pushes)
        case .zoneFault(let fault, let account, let selector):
            performZoneFault(fault, account: account.value, selector: selector?.value)
        case .expireTokens(let account):
            cloud.expireTokens(account: account.value)
        case .failDownloads(let account, let duration):
            cloud.failDownloads(account: account.value, until: now.adding(span(duration)))
        case .zoneBusy(let account, let duration):
            // Every custom zone the account holds now (docs/FORMAT.md, a SyncLab addition).
            for zone in cloud.zones(of: account.value) where !zone.isDefaultZone {
                cloud.zoneBusy(zone, until: now.adding(span(duration)))
            }
        case .outage(let duration):
            cloud.outage(until: now.adding(span(duration)))
        case .reject(let label, let error):
            guard let name = requireRecordName(label.value),
                  let code = CloudErrorCode(name: error.value.rawValue) else { return }
            for account in cloud.accountNames {
                cloud.reject(recordName: name, account: account, with: code)
            }
        case .accept(let label):
            guard let name = requireRecordName(label.value) else { return }
            for account in cloud.accountNames {
                cloud.accept(recordName: name, account: account)
            }
        case .deploySchema:
            cloud.deploySchema()
        case .failNextBatch(let account, let code):
            cloud.failNextBatch(
                account: account.value,
                firstItem: code.flatMap { CloudErrorCode(name: $0.value.rawValue) })
        case .putRecord(let account, let recordType, let name, let fields):
            putServerRecord(account.value, recordType.value, name.value, fields)
        case .serveOldVersion(let account, let label):
            serveOldVersion(account.value, label.value)
        case .setting(let setting):
            apply(setting)
        }
    }

    /// A zone fault on every custom zone of the account (no selector) or on one named zone.
    /// The zone of `collection LABEL` is the zone of the account's private database holding
    /// LABEL's record, whichever engine laid it out (docs/FORMAT.md).
    private func performZoneFault(_ fault: ZoneFault, account: String, selector: ZoneSelector?) {
        let reason: ZoneDeletionReason
        switch fault {
        case .deleteZone: reason = .deleted
        case .userDeleteZone: reason = .purged
        case .resetEncryptedData: reason = .encryptedDataReset
        }
        let outcome: CloudOutcome
        switch selector {
        case nil:
            if reason == .purged { reportPurge(of: cloud.zones(of: account)) }
            outcome = cloud.deleteZones(account: account, reason: reason, now: now)
        case .zone(let name)?:
            let zone = ZoneID(owner: account, name: name)
            if reason == .purged { reportPurge(of: [zone]) }
            outcome = cloud.deleteZone(zone, reason: reason, now: now)
        case .collection(let label)?:
            guard let name = requireRecordName(label) else { return }
            guard let zone = cloud.zones(of: account).first(where: {
                cloud.record(named: name, in: $0) != nil
            }) else {
                fail("label '\(label)' has no record in a zone of account '\(account)'")
                return
            }
            if reason == .purged { reportPurge(of: [zone]) }
            outcome = cloud.deleteZone(zone, reason: reason, now: now)
        }
        applyNotes(outcome.notes)
        sendPushes(outcome.pushes)
    }

    /// Tells the explorer's ledger which custom zones a user's purge removes (the default
    /// zone is never deleted).
    private func reportPurge(of zones: [ZoneID]) {
        guard let report = beforeUserPurge else { return }
        report(zones.filter { !$0.isDefaultZone })
    }

    private func apply(_ setting: CloudSettingKind) {
        switch setting {
        case .latency(let specification):
            network.cloudLatency = Latency(specification)
        case .pushLatency(let specification):
            network.pushLatency = Latency(specification)
        case .pushDrop(let probability):
            network.pushDropPerMillion = UInt64(max(0, probability.partsPerMillion))
        case .pageSize:
            fail("'page-size' can only be set in the setup")
        case .environment(let environment):
            cloud.setEnvironment(environment == .production ? .production : .development)
        case .missingDeletes(let answer):
            cloud.setMissingDeletes(answer == .unknownItem ? .unknownItem : .succeed)
        case .childSaves(let answer):
            cloud.setChildSaveChangesParentTag(answer == .touchParent)
        }
    }

    private func requireRecordName(_ label: String) -> String? {
        labels.resolveNames(devices: devices)
        guard let name = labels.recordName(of: label) else {
            fail("label '\(label)' has no record yet")
            return nil
        }
        return name
    }

    static func name(of action: CloudAction) -> String {
        switch action {
        case .throttle: return "throttle"
        case .throttleNextUpload: return "throttle next-upload"
        case .throttleNextDeletes: return "throttle next-upload deletes"
        case .quota(_, let full): return full ? "quota full" : "quota ok"
        case .deleteZone: return "delete-zone"
        case .userDeleteZone: return "user-delete-zone"
        case .zoneFault(let fault, _, let selector):
            switch selector?.value {
            case nil: return fault.rawValue
            case .collection?: return fault.rawValue + " collection"
            case .zone?: return fault.rawValue + " zone"
            }
        case .expireTokens: return "expire-tokens"
        case .failDownloads: return "fail-downloads"
        case .zoneBusy: return "zone-busy"
        case .outage: return "outage"
        case .reject: return "reject"
        case .accept: return "accept"
        case .deploySchema: return "deploy-schema"
        case .failNextBatch: return "fail-next-batch"
        case .putRecord: return "put-record"
        case .serveOldVersion: return "serve-old-version"
        case .setting(let setting):
            switch setting {
            case .latency: return "latency"
            case .pushLatency: return "push latency"
            case .pushDrop: return "push drop"
            case .pageSize: return "page-size"
            case .environment(let environment): return "environment \(environment.rawValue)"
            case .missingDeletes(let answer): return "missing-deletes \(answer.rawValue)"
            case .childSaves(let answer): return "child-saves \(answer.rawValue)"
            }
        }
    }
}
