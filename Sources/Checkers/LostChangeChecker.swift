import CloudSim
import Kernel
import LocalStore
import SyncContract

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
/// record). Records any device deleted are left to the resurrection checker, and those a
/// batch delete removed are not judged (engines that read the persistent history delete them
/// in iCloud too). A save made before a user's purge removed its record from iCloud is
/// superseded by it. A save on a device where a rule that discards changes fired (the engine
/// catalogue's exemptions from `lost-change`) is exempt and supersedes no save (it may have
/// been discarded, and the value it replaced come back); a device where a rule exempting
/// convergence fired (it stopped synchronizing by design) is not asked.
package enum LostChangeChecker {
    /// Rules under which a saved change may vanish by design.
    static func discardingRules(_ world: WorldSnapshot) -> [String] {
        world.catalogue.exemptions(from: InvariantCheck.lostChange.rawValue)
    }

    package static func check(_ world: WorldSnapshot, ledger: SaveLedger, labels: RecordLabels)
        -> [CheckerFinding]
    {
        let saves = ledger.saves
        // Each save's record now: ID-2 may have given the model another record since, and
        // the save is judged by that one. Kept apart from the saves (not written into a copy
        // of them, which copied every save and its references), and read device by device
        // (each observation copied out of its array once, not once per save).
        var records = saves.map(\.record)
        for device in world.devices.indices {
            let observation = world.devices[device].observation
            for index in saves.indices where saves[index].device == device {
                if let record = observation.recordName(of: saves[index].model) {
                    records[index] = record
                }
            }
        }
        var judge = Judge(world: world, exempt: exemptDevices(world),
                          paused: pausedDevices(world), labels: labels,
                          everyKeySyncs: world.devices.allSatisfy { $0.recordingView == nil }
                              && world.schema.entities.allSatisfy { $0.sync == .all })
        var findings: [CheckerFinding] = []
        for group in groups(of: saves, records: records,
                            deletions: [ledger.deletions, ledger.batchDeletions],
                            purges: ledger.purges) {
            // A group's saves share their record (now).
            findings += judge.check(saves, group, record: records[group[0]])
        }
        return findings
    }

    /// The saves (by position) of records no device deleted, grouped by (account, record,
    /// key), each group in the order the saves were made, the groups in the order of their
    /// first save.
    ///
    /// Each string is numbered once (equal strings, equal numbers) and each save joins its
    /// group by those numbers: a record's groups are chained from the record's number, so no
    /// three strings are hashed into a dictionary of groups per save, and nothing is sorted
    /// (a save opens its group, in save order, or joins one opened before). A deleted record
    /// is told by its numbers too (no set of two strings hashed again per save).
    ///
    /// Accounts and keys are few and short (compared in place, the last match first); a
    /// record name is hashed only when it is not the previous save's (the saves of one
    /// change, one after the other, share their record): three hashes a save were about two
    /// thirds of the check.
    ///
    /// `records`: each save's record now (its `record` is the one it was saved with);
    /// `purges`: a save made before one of its record is left out.
    private static func groups(
        of saves: [SaveLedger.ValueSave], records recordNames: [String],
        deletions lists: [[SaveLedger.Deletion]], purges: [SaveLedger.Deletion]
    ) -> [[Int]] {
        var accounts = FewNumbers()
        var keys = FewNumbers()
        // Sized once: grown step by step, the tables were rehashed several times a check.
        // By `HashedRecordName`: `String`'s own hashing (SipHash) was most of a lookup.
        let deletionCount = lists.reduce(0) { $0 + $1.count }
        var records = [HashedRecordName: Int](minimumCapacity: saves.count + deletionCount)
        var lastRecord: (name: String, number: Int)?
        func record(_ name: String) -> Int {
            if let lastRecord, lastRecord.name == name { return lastRecord.number }
            let number: Int
            let key = HashedRecordName(name)
            if let known = records[key] {
                number = known
            } else {
                number = records.count
                records[key] = number
            }
            lastRecord = (name, number)
            return number
        }
        var deleted = Set<RecordKey>(minimumCapacity: deletionCount)
        for deletion in lists.joined() {
            deleted.insert(
                RecordKey(account: accounts.number(deletion.account),
                          record: record(deletion.record)))
        }
        // The order of each purged record's last purge.
        var purged: [RecordKey: Int] = [:]
        for purge in purges {
            let key = RecordKey(account: accounts.number(purge.account),
                                record: record(purge.record))
            purged[key] = max(purged[key] ?? 0, purge.order)
        }
        // Per record number, its latest group (-1: none); per group, its account and key
        // numbers and the record's group opened before it. (All sized once.)
        var latestGroup: [Int] = [], groups: [[Int]] = []
        var chain: [(account: Int, key: Int, previous: Int)] = []
        latestGroup.reserveCapacity(saves.count + deletionCount)
        groups.reserveCapacity(saves.count)
        chain.reserveCapacity(saves.count)
        for position in saves.indices {
            let account = accounts.number(saves[position].account)
            let record = record(recordNames[position])
            // (An empty set is not asked.)
            guard deleted.isEmpty
                || !deleted.contains(RecordKey(account: account, record: record))
            else { continue }
            if !purged.isEmpty,
                let last = purged[RecordKey(account: account, record: record)],
                saves[position].order < last { continue }
            let key = keys.number(saves[position].key)
            while latestGroup.count <= record { latestGroup.append(-1) }
            var group = latestGroup[record]
            while group >= 0, chain[group].account != account || chain[group].key != key {
                group = chain[group].previous
            }
            if group >= 0 {
                groups[group].append(position)
            } else {
                chain.append((account, key, latestGroup[record]))
                latestGroup[record] = groups.count
                groups.append([position])
            }
        }
        return groups
    }

    /// Numbers a few distinct strings (accounts, attribute names) by their place in a list,
    /// equal strings alike: compared in place, the last one matched first, never hashed.
    private struct FewNumbers {
        private var texts: [String] = []
        private var last = 0

        mutating func number(_ text: String) -> Int {
            if last < texts.count, texts[last] == text { return last }
            if let known = texts.firstIndex(of: text) {
                last = known
                return known
            }
            texts.append(text)
            last = texts.count - 1
            return last
        }
    }

    /// A record of an account, by the numbers of its strings (lookup only: the order of
    /// groups is `groups(of:deletions:)`'s).
    private struct RecordKey: Hashable {
        var account: Int
        var record: Int

        /// Both numbers in one word, mixed by `TableHash` in a table (`Hasher` took most of
        /// a lookup).
        private var word: UInt64 {
            UInt64(truncatingIfNeeded: account) &* 0x9E37_79B9_7F4A_7C15
                ^ UInt64(truncatingIfNeeded: record)
        }

        func hash(into hasher: inout Hasher) { hasher.combine(word) }

        func _rawHashValue(seed: Int) -> Int { TableHash.mix(word, seed: seed) }
    }

    /// Devices (by index) where a discarding rule fired; the cloud's rules count for all.
    private static func exemptDevices(_ world: WorldSnapshot) -> [Bool] {
        let discardingRules = discardingRules(world)
        let cloudDiscards = discardingRules.contains(where: world.cloudFiredRules.contains)
        return world.devices.map { device in
            cloudDiscards || discardingRules.contains(where: device.firedRules.contains)
        }
    }

    /// Devices on which a rule exempting convergence fired: they stop synchronizing by design
    /// (sds: ERR-2), so they are not asked for others' saves, as the convergence check does.
    private static func pausedDevices(_ world: WorldSnapshot) -> [Bool] {
        let pausing = world.catalogue.exemptions(from: InvariantCheck.convergence.rawValue)
        return world.devices.map { device in pausing.contains(where: device.firedRules.contains) }
    }

    /// Judges the saves of one (account, record, key) against iCloud and the devices.
    private struct Judge {
        /// What a judgment reads of an attribute: copying the whole description retained its
        /// name and default, for every group.
        struct AttributeFacts {
            let type: AttributeType
            let defaultValue: LocalStore.AttributeValue?
        }

        let world: WorldSnapshot
        let exempt: [Bool]
        let paused: [Bool]
        let labels: RecordLabels
        /// No `syncs` line and no extension's view: every device reads the schema's entities
        /// and synchronizes every key, so EXT-2's questions have one answer for all devices.
        let everyKeySyncs: Bool
        /// The type and default of the schema's attribute of each (entity, key) judged so far:
        /// looked up for every group, the entity's whole description was copied out, then the
        /// attribute's (and the cached description was copied out again for each group).
        private var attributes: [(entity: String, key: String, attribute: AttributeFacts?)] = []

        init(
            world: WorldSnapshot, exempt: [Bool], paused: [Bool], labels: RecordLabels,
            everyKeySyncs: Bool
        ) {
            self.world = world
            self.exempt = exempt
            self.paused = paused
            self.labels = labels
            self.everyKeySyncs = everyKeySyncs
            // A run judges a few keys: room for them at once.
            attributes.reserveCapacity(8)
        }

        /// The type and default of `world.schema.entity(named: entity)?.attribute(named: key)`,
        /// each pair looked up once.
        mutating func attribute(_ key: String, of entity: String) -> AttributeFacts? {
            if let known = attributes.firstIndex(where: { $0.entity == entity && $0.key == key }) {
                return attributes[known].attribute
            }
            let attribute = world.schema.entity(named: entity)?.attribute(named: key)
                .map { AttributeFacts(type: $0.type, defaultValue: $0.defaultValue) }
            attributes.append((entity, key, attribute))
            return attribute
        }

        /// The entity as the device's app version declares it (`syncs`, EXT-2).
        func entity(named name: String, as device: WorldSnapshot.DeviceState)
            -> EntityDescription?
        {
            (device.recordingView.map { $0.applied(to: world.schema) } ?? world.schema)
                .entity(named: name)
        }

        /// Whether the device's app version leaves the key out, or its store declines the
        /// record by design (a required value it lacks, or one that version does not
        /// synchronize: OBX-22, HIS-21, DL-4, NAIVE-8), as the explorer's convergence check
        /// asks (EXT-2).
        func declines(
            record: CloudRecord?, key: String, entity name: String,
            _ device: WorldSnapshot.DeviceState
        ) -> Bool {
            guard let entity = entity(named: name, as: device) else { return false }
            guard entity.sync.includes(key) else { return true }
            return record.map {
                ConvergenceChecker.lacksRequiredValue($0, entity, codec: world.codec)
            } ?? false
        }

        /// `record`: the saves' record now (not the one they were saved with).
        /// `group`: the positions in `saves` of the saves of one (account, record, key).
        mutating func check(_ saves: [SaveLedger.ValueSave], _ group: [Int], record: String)
            -> [CheckerFinding]
        {
            // A key the saving device's app version does not synchronize stays on it (EXT-2).
            let group = everyKeySyncs ? group : group.filter { position in
                entity(named: saves[position].entity, as: world.devices[saves[position].device])?
                    .sync.includes(saves[position].key) ?? true
            }
            guard let position = group.first else { return [] }
            // Field by field: a copy of the whole save retained each string and value in it.
            let (key, entityName, account) =
                (saves[position].key, saves[position].entity, saves[position].account)
            guard let attribute = attribute(key, of: entityName) else { return [] }
            let candidates = LostChangeChecker.candidates(
                in: saves, group: group, defaultValue: attribute.defaultValue, exempt: exempt)
            guard candidates.contains(where: { !exempt[saves[$0].device] }) else { return [] }
            let acceptable = candidates.map { saves[$0].value }
            var problems: [(scope: String, found: String)] = []
            let cloudRecord = world.appRecord(named: record, of: account)
            if let cloudRecord {
                // The value wherever the engine's codec reads it (sds: a field or its asset).
                let value = world.codec.value(of: key, type: attribute.type, in: cloudRecord)
                if !acceptable.contains(value) {
                    problems.append(("cloud \(account)",
                        "iCloud has \(key)=\(ValueDescription.describe(value)) for"))
                }
            } else {
                problems.append(("cloud \(account)", "iCloud lacks"))
            }
            // Asked once when every device would answer alike (`everyKeySyncs`).
            var declinedByAll: Bool?
            for (index, device) in world.devices.enumerated() {
                guard device.account == account, device.isOnline, device.isRunning,
                    !paused[index]
                else { continue }
                if everyKeySyncs && declinedByAll == nil {
                    declinedByAll = declines(
                        record: cloudRecord, key: key, entity: entityName, device)
                }
                guard !(declinedByAll
                    ?? declines(record: cloudRecord, key: key, entity: entityName, device))
                else { continue }
                let store = device.store
                guard let values = device.observation.model(forRecord: record)
                    .flatMap(store.values(of:))
                else {
                    problems.append((device.name, "\(device.name) lacks"))
                    continue
                }
                if !acceptable.contains(values[key]) {
                    let held = ValueDescription.describe(values[key])
                    problems.append((device.name, "\(device.name) has \(key)=\(held) for"))
                }
            }
            guard !problems.isEmpty else { return [] }
            let latest = saves[candidates[candidates.count - 1]]
            let wanted = "\(key)=\(ValueDescription.describe(latest.value))"
            let saver = "\(world.devices[latest.device].name) saved \(wanted) at \(latest.time)"
            let name = labels.describe(record)
            let label = labels.label(of: record)
            return problems.map { problem in
                var expectations: [String] = []
                if let label, isLiteral(latest.value) {
                    expectations = ["expect \(problem.scope): \(label) \(wanted)"]
                }
                return CheckerFinding(.lostChange, "\(saver); \(problem.found) \(name)",
                    expectations: expectations)
            }
        }
    }

    /// The saves of one key that no other save superseded, in the order they were made.
    package static func candidateSaves(
        _ saves: [SaveLedger.ValueSave], attribute: AttributeDescription, exempt: [Bool] = []
    ) -> [SaveLedger.ValueSave] {
        candidates(
            in: saves, group: Array(saves.indices), defaultValue: attribute.defaultValue,
            exempt: exempt
        ).map { saves[$0] }
    }

    /// `candidateSaves` of the saves at `group`'s positions, by position: the saves are read
    /// where they are (a list of a group's saves copied each one out, every reference in it).
    static func candidates(
        in saves: [SaveLedger.ValueSave], group: [Int], defaultValue: LocalStore.AttributeValue?,
        exempt: [Bool]
    ) -> [Int] {
        // A save on an exempt device may have been discarded: it supersedes nothing.
        func supersedes(_ position: Int) -> Bool {
            saves[position].device >= exempt.count || !exempt[saves[position].device]
        }
        // Most keys have a few saves: their writers are counted by a scan, not hashed.
        var writers: [LocalStore.AttributeValue?: Int] = [:]
        if group.count > 8 {
            writers = Dictionary(minimumCapacity: group.count)
            for position in group { writers[saves[position].value, default: 0] += 1 }
        }
        func isDistinctive(_ value: LocalStore.AttributeValue?) -> Bool {
            guard let value, value.type != .bool, value != defaultValue else {
                return false
            }
            if group.count > 8 { return writers[value] == 1 }
            var count = 0
            for position in group where saves[position].value == value { count += 1 }
            return count == 1
        }
        var candidates: [Int] = []
        candidates.reserveCapacity(group.count)
        for index in group.indices {
            let save = group[index]
            let later = group[(index + 1)...]
            if later.contains(where: { saves[$0].device == saves[save].device && supersedes($0) })
            {
                continue
            }
            if isDistinctive(saves[save].value),
                later.contains(where: {
                    saves[$0].prior == .known(saves[save].value) && supersedes($0)
                })
            {
                continue
            }
            candidates.append(save)
        }
        return candidates
    }

    /// Whether `ValueDescription.describe` writes the value as a literal the format reads
    /// back (it summarises long texts and data).
    static func isLiteral(_ value: LocalStore.AttributeValue?) -> Bool {
        switch value {
        case .string(let text)?: return text.utf8.count <= 64
        case .data(let bytes)?: return bytes.count <= 32
        default: return true
        }
    }
}
