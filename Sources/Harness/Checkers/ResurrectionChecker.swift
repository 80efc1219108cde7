import CloudSim
import Device

/// No resurrection: a record that a device's saved deletion removed does not come back, in
/// iCloud or on the device that deleted it, unless the app inserted it again.
///
/// "Inserted again" counts any insert of the record saved after the deletion, and any
/// record the app inserted more than once (identity records: several devices may create the
/// same one). Rules that bring records back by design (`restoringRules`: a re-created zone
/// re-uploads every local model, batch-deleted models return) exempt the whole run.
enum ResurrectionChecker {
    static let restoringRules = ["ERR-1", "DEL-2", "DEL-3", "LIFE-2", "ACCT-3"]

    static func check(_ world: World, ledger: SaveLedger, labels: RecordLabels)
        -> [CheckerFinding]
    {
        let fired = world.firedRules.reduce(into: Set<String>()) { $0.formUnion($1) }
        guard !restoringRules.contains(where: fired.contains) else { return [] }
        var seen: Set<String> = []
        var findings: [CheckerFinding] = []
        for deletion in ledger.deletions {
            guard seen.insert(deletion.account + "/" + deletion.record).inserted else { continue }
            let inserts = ledger.insertions.filter { $0.record == deletion.record }
            if inserts.count > 1 || inserts.contains(where: { $0.order > deletion.order }) {
                continue
            }
            findings += check(deletion, world: world, labels: labels)
        }
        return findings
    }

    private static func check(
        _ deletion: SaveLedger.Deletion, world: World, labels: RecordLabels
    ) -> [CheckerFinding] {
        let deleter = world.devices[deletion.device]
        let name = labels.describe(deletion.record)
        let label = labels.label(of: deletion.record)
        let said = "\(deleter.name) deleted \(name) at \(deletion.time)"
        var findings: [CheckerFinding] = []
        let zone = world.cloud.appZone(of: deletion.account)
        if world.cloud.record(named: deletion.record, in: zone) != nil {
            findings.append(CheckerFinding(.resurrection, "\(said); iCloud has it again",
                expectations: label.map { ["expect cloud \(deletion.account): no \($0)"] } ?? []))
        }
        if deleter.isRunning, deleter.account == deletion.account,
            let id = deleter.disk.syncData.models[deletion.record],
            deleter.disk.store.model(id) != nil
        {
            findings.append(CheckerFinding(.resurrection, "\(said); \(deleter.name) has it again",
                expectations: label.map { ["expect \(deleter.name): no \($0)"] } ?? []))
        }
        return findings
    }
}
