import CloudSim
import Kernel

/// No resurrection: a record that a device's saved deletion removed does not come back, in
/// iCloud or on the device that deleted it, unless the app inserted it again.
///
/// "Inserted again" counts any insert of the record saved after the deletion, and any
/// record the app inserted more than once (identity records: several devices may create the
/// same one). Rules that bring records back by design (the engine catalogue's exemptions
/// from `resurrection`; sds: a re-created zone re-uploads every local model, batch-deleted
/// models return) exempt the whole run.
package enum ResurrectionChecker {
    package static func check(_ world: WorldSnapshot, ledger: SaveLedger, labels: RecordLabels)
        -> [CheckerFinding]
    {
        let restoringRules = world.catalogue.exemptions(
            from: InvariantCheck.resurrection.rawValue)
        // Each rule asked of each device's set (and the cloud's): the union of every fired
        // rule was built, and its rules hashed, for the few rules asked.
        guard !restoringRules.contains(where: world.fired) else { return [] }
        guard !ledger.deletions.isEmpty else { return [] }
        // How often the app inserted each record and its latest insert, read once: the
        // insertions were scanned (a string comparison each) for every deletion.
        // (By `HashedRecordName`: `String`'s own hashing was most of a lookup.)
        var inserted = [HashedRecordName: (count: Int, latest: Int)](
            minimumCapacity: ledger.insertions.count)
        for insertion in ledger.insertions {
            let key = HashedRecordName(insertion.record)
            if let known = inserted[key] {
                inserted[key] = (known.count + 1, max(known.latest, insertion.order))
            } else {
                inserted[key] = (1, insertion.order)
            }
        }
        var seen = Set<DeletedRecord>(minimumCapacity: ledger.deletions.count)
        var findings: [CheckerFinding] = []
        for deletion in ledger.deletions {
            guard seen.insert(DeletedRecord(account: deletion.account, record: deletion.record))
                .inserted else { continue }
            if let inserts = inserted[HashedRecordName(deletion.record)],
                inserts.count > 1 || inserts.latest > deletion.order
            {
                continue
            }
            findings += check(deletion, world: world, labels: labels)
        }
        return findings
    }

    /// A record of an account, judged once (the pair itself, not `account/record` written
    /// out and hashed).
    private struct DeletedRecord: Hashable {
        var account: String
        var record: String

        /// By the record name's `RecordNameHash` alone (equal pairs hash alike), and in a
        /// table mixed by `TableHash`: `Hasher` took most of an insert.
        func hash(into hasher: inout Hasher) { hasher.combine(RecordNameHash.hash(record)) }

        func _rawHashValue(seed: Int) -> Int {
            TableHash.mix(UInt64(bitPattern: Int64(RecordNameHash.hash(record))), seed: seed)
        }
    }

    private static func check(
        _ deletion: SaveLedger.Deletion, world: WorldSnapshot, labels: RecordLabels
    ) -> [CheckerFinding] {
        let deleter = world.devices[deletion.device]
        let label = labels.label(of: deletion.record)
        // Worded only for a finding: most deletions have none.
        var said: String {
            "\(deleter.name) deleted \(labels.describe(deletion.record)) at \(deletion.time)"
        }
        var findings: [CheckerFinding] = []
        // Asked whether each is there, not read: `!= nil` on the record or model copied it
        // (through generic routines, both sides of the comparison) only to drop it.
        if world.hasAppRecord(named: deletion.record, of: deletion.account) {
            findings.append(CheckerFinding(.resurrection, "\(said); iCloud has it again",
                expectations: label.map { ["expect cloud \(deletion.account): no \($0)"] } ?? []))
        }
        if deleter.isRunning, deleter.account == deletion.account,
            let id = deleter.observation.model(forRecord: deletion.record),
            deleter.store.contains(id)
        {
            findings.append(CheckerFinding(.resurrection, "\(said); \(deleter.name) has it again",
                expectations: label.map { ["expect \(deleter.name): no \($0)"] } ?? []))
        }
        return findings
    }
}
