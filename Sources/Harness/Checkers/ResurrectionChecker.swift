import CloudSim
import Device

/// No resurrection: a record that a device's saved deletion removed does not come back, in
/// iCloud or on the device that deleted it, unless the app inserted it again.
///
/// "Inserted again" counts any insert of the record saved after the deletion, and any
/// record the app inserted more than once (identity records: several devices may create the
/// same one). Rules that bring records back by design (the engine catalogue's exemptions
/// from `resurrection`; sds: a re-created zone re-uploads every local model, batch-deleted
/// models return) exempt the whole run.
enum ResurrectionChecker {

    static func check(_ world: World, ledger: SaveLedger, labels: RecordLabels)
        -> [CheckerFinding]
    {
        check(WorldReading(world), ledger: ledger, labels: labels)
    }

    /// The same, from a reading of the world the other checkers share.
    static func check(_ reading: WorldReading, ledger: SaveLedger, labels: RecordLabels)
        -> [CheckerFinding]
    {
        let world = reading.world
        let fired = world.firedRules.reduce(into: Set<String>()) { $0.formUnion($1) }
        let restoringRules = world.profile.catalogue.exemptions(
            from: InvariantCheck.resurrection.rawValue)
        guard !restoringRules.contains(where: fired.contains) else { return [] }
        var seen: Set<String> = []
        var findings: [CheckerFinding] = []
        for deletion in ledger.deletions {
            guard seen.insert(deletion.account + "/" + deletion.record).inserted else { continue }
            let inserts = ledger.insertions.filter { $0.record == deletion.record }
            if inserts.count > 1 || inserts.contains(where: { $0.order > deletion.order }) {
                continue
            }
            findings += check(deletion, reading: reading, labels: labels)
        }
        return findings
    }

    private static func check(
        _ deletion: SaveLedger.Deletion, reading: WorldReading, labels: RecordLabels
    ) -> [CheckerFinding] {
        let world = reading.world
        let deleter = world.devices[deletion.device]
        let label = labels.label(of: deletion.record)
        // Worded only for a finding: most deletions have none.
        var said: String {
            "\(deleter.name) deleted \(labels.describe(deletion.record)) at \(deletion.time)"
        }
        var findings: [CheckerFinding] = []
        // Asked whether each is there, not read: `!= nil` on the record or model copied it
        // (through generic routines, both sides of the comparison) only to drop it.
        if reading.hasAppRecord(named: deletion.record, of: deletion.account) {
            findings.append(CheckerFinding(.resurrection, "\(said); iCloud has it again",
                expectations: label.map { ["expect cloud \(deletion.account): no \($0)"] } ?? []))
        }
        if deleter.isRunning, deleter.account == deletion.account,
            let id = reading.observations[deletion.device].model(forRecord: deletion.record),
            reading.stores[deletion.device].contains(id)
        {
            findings.append(CheckerFinding(.resurrection, "\(said); \(deleter.name) has it again",
                expectations: label.map { ["expect \(deleter.name): no \($0)"] } ?? []))
        }
        return findings
    }
}
