import CloudSim
import Device
import Engines
import LocalStore

/// No lost saved change: every value the app saved that no later save or deletion
/// superseded is in iCloud and on every device signed into that account, online and
/// running.
///
/// Precisely, for each (account, record, key) the app saved and no device deleted:
/// - a save S of value v is *superseded* by a later save of the same key on the same device,
///   or by a save on another device that held v just before it (it had seen S); "held v"
///   only counts when v is *distinctive*: not nil, not a Bool, not the attribute's default,
///   and written by no other save of that key (so holding it means having downloaded it);
/// - the saves not superseded are the *candidates*; iCloud's value, and each such device's,
///   must be one of theirs (concurrent saves may end either way: the last upload wins).
/// A save counts for the record its model holds at the end (ID-2 can hand a model another
/// record). Records any device deleted are left to the resurrection checker. A save on a device
/// where a rule that discards changes fired (`discardingRules`) is exempt.
enum LostChangeChecker {
    /// Rules under which a saved change may vanish by design.
    static let discardingRules = [
        "SYNC-3", "ADOPT-2", "ERR-1", "ERR-2", "ACCT-3", "LIFE-2", "LIFE-5", "DEL-2", "DEL-3",
    ]

    static func check(_ world: World, ledger: SaveLedger, labels: RecordLabels)
        -> [CheckerFinding]
    {
        var deleted: Set<String> = []
        for deletion in ledger.deletions {
            deleted.insert(deletion.account + "/" + deletion.record)
        }
        var groups: [String: [Int]] = [:]
        var groupOrder: [String] = []
        var current = ledger.saves
        for index in current.indices {
            // ID-2 may have given the model another record since: judge it by that one.
            let syncData = world.devices[current[index].device].disk.syncData
            if let record = syncData.recordNames[current[index].model] {
                current[index].record = record
            }
        }
        for (index, save) in current.enumerated() {
            guard !deleted.contains(save.account + "/" + save.record) else { continue }
            let key = save.account + "/" + save.record + "/" + save.key
            if groups[key] == nil { groupOrder.append(key) }
            groups[key, default: []].append(index)
        }
        let exempt = exemptDevices(world)
        var findings: [CheckerFinding] = []
        for key in groupOrder {
            let saves = (groups[key] ?? []).map { current[$0] }
            findings += check(saves, world: world, exempt: exempt, labels: labels)
        }
        return findings
    }

    /// Devices (by index) where a discarding rule fired; the cloud's rules count for all.
    private static func exemptDevices(_ world: World) -> [Bool] {
        let cloud = world.firedRules[world.devices.count]
        let cloudDiscards = discardingRules.contains(where: cloud.contains)
        return world.devices.indices.map { index in
            cloudDiscards || discardingRules.contains(where: world.firedRules[index].contains)
        }
    }

    private static func check(
        _ saves: [SaveLedger.ValueSave], world: World, exempt: [Bool], labels: RecordLabels
    ) -> [CheckerFinding] {
        guard let first = saves.first,
            let attribute = world.schema.entity(named: first.entity)?.attribute(named: first.key)
        else { return [] }
        let candidates = candidateSaves(saves, attribute: attribute)
        guard candidates.contains(where: { !exempt[$0.device] }) else { return [] }
        let acceptable = candidates.map(\.value)
        let latest = candidates[candidates.count - 1]
        let record = first.record
        let name = labels.describe(record)
        let wanted = "\(first.key)=\(ValueConversion.describe(latest.value))"
        let saver = "\(world.devices[latest.device].name) saved \(wanted) at \(latest.time)"
        var findings: [CheckerFinding] = []
        let zone = world.cloud.appZone(of: first.account)
        let label = labels.label(of: record)
        func expectation(_ scope: String) -> [String] {
            guard let label, isLiteral(latest.value) else { return [] }
            return ["expect \(scope): \(label) \(wanted)"]
        }
        if let cloudRecord = world.cloud.record(named: record, in: zone) {
            let value = cloudRecord.fields[first.key].flatMap {
                RecordMapping.attributeValue($0, type: attribute.type)
            }
            if !acceptable.contains(value) {
                findings.append(CheckerFinding(.lostChange,
                    "\(saver); iCloud has \(first.key)=\(ValueConversion.describe(value)) "
                        + "for \(name)", expectations: expectation("cloud \(first.account)")))
            }
        } else {
            findings.append(CheckerFinding(.lostChange,
                "\(saver); iCloud lacks \(name)",
                expectations: expectation("cloud \(first.account)")))
        }
        for device in world.devices where device.account == first.account {
            guard device.isOnline, device.isRunning else { continue }
            let model = device.disk.syncData.models[record].flatMap(device.disk.store.model)
            guard let model else {
                findings.append(CheckerFinding(.lostChange,
                    "\(saver); \(device.name) lacks \(name)",
                    expectations: expectation(device.name)))
                continue
            }
            if !acceptable.contains(model.values[first.key]) {
                let held = ValueConversion.describe(model.values[first.key])
                findings.append(CheckerFinding(.lostChange,
                    "\(saver); \(device.name) has \(first.key)=\(held) for \(name)",
                    expectations: expectation(device.name)))
            }
        }
        return findings
    }

    /// The saves of one key that no other save superseded, in the order they were made.
    static func candidateSaves(
        _ saves: [SaveLedger.ValueSave], attribute: AttributeDescription
    ) -> [SaveLedger.ValueSave] {
        var writers: [LocalStore.AttributeValue?: Int] = [:]
        for save in saves { writers[save.value, default: 0] += 1 }
        func isDistinctive(_ value: LocalStore.AttributeValue?) -> Bool {
            guard let value, value.type != .bool, value != attribute.defaultValue else {
                return false
            }
            return writers[value] == 1
        }
        return saves.enumerated().filter { position, save in
            let later = saves[(position + 1)...]
            if later.contains(where: { $0.device == save.device }) { return false }
            guard isDistinctive(save.value) else { return true }
            return !later.contains { $0.prior == .known(save.value) }
        }.map(\.element)
    }

    /// Whether `ValueConversion.describe` writes the value as a literal the format reads
    /// back (it summarises long texts and data).
    static func isLiteral(_ value: LocalStore.AttributeValue?) -> Bool {
        switch value {
        case .string(let text)?: return text.utf8.count <= 64
        case .data(let bytes)?: return bytes.count <= 32
        default: return true
        }
    }
}
