import CloudSim
import Kernel
import LocalStore
import SyncContract

/// What the app saved on each device, read from the stores' histories (entries the app
/// authored) at statement boundaries: the facts the lost-change, duplicate-identity and
/// resurrection checkers judge the end state by.
///
/// For a statement run by the device that saves, the ledger knows what the device held just
/// before (a snapshot of its store), so it can tell whether a save was made over a value
/// another device saved: that is how one save supersedes another (docs/EXPLORER.md).
package struct SaveLedger {
    /// What the saving device held for the key just before the save.
    package enum Prior: Hashable {
        /// The model existed; this was its value (nil: none).
        case known(LocalStore.AttributeValue?)
        /// The model was new (an insert).
        case none
        /// Saved outside a statement of that device (a trigger): not known.
        case unknown
    }

    /// One synchronized attribute value the app saved.
    ///
    /// The ledger builds it with its memberwise initializer (account first, unlike the package
    /// one): built by an explicit initializer, each save was copied into the list and freed.
    package struct ValueSave {
        package var account: String
        package var device: Int
        package var model: ModelID
        /// The model's record when it was saved (ID-2 may give the model another later).
        package var record: String
        package var entity: String
        package var key: String
        package var value: LocalStore.AttributeValue?
        package var prior: Prior
        package var time: SimTime
        /// Position among everything the ledger saw, for "later than".
        package var order: Int
    }

    /// A model the app deleted (its record, looked up before the engine forgot it).
    package struct Deletion {
        package var device: Int
        package var account: String
        package var record: String
        package var time: SimTime
        package var order: Int
    }

    /// A model the app inserted.
    package struct Insertion {
        package var device: Int
        package var record: String
        package var model: ModelID
        package var order: Int
    }

    /// What a device held just before one of its own statements: the values of the model
    /// the statement names, and (before a deletion) the record names of every model, since
    /// the engine forgets those of deleted models.
    package struct Snapshot {
        package var device: Int
        package var model: ModelID?
        package var values: SortedMap<String, LocalStore.AttributeValue>
        /// Each model's record name, in the store's order. A list, not a dictionary: it is
        /// taken before every delete and save statement and asked only for the few models
        /// the statement deleted (hashing every model's identifier in was most of its cost).
        var recordNames: [(model: ModelID, name: String)]

        package init(
            device: Int, model: ModelID?, values: SortedMap<String, LocalStore.AttributeValue>,
            recordNames: [(model: ModelID, name: String)]
        ) {
            self.device = device
            self.model = model
            self.values = values
            self.recordNames = recordNames
        }

        /// The record name the snapshot noted for the model.
        func recordName(of model: ModelID) -> String? {
            recordNames.first { $0.model == model }?.name
        }
    }

    package private(set) var saves: [ValueSave] = []
    package private(set) var deletions: [Deletion] = []
    /// The records of models the app batch-deleted: no save notification carries those
    /// (DEL-2), but engines that read the persistent history delete their records.
    package private(set) var batchDeletions: [Deletion] = []
    package private(set) var insertions: [Insertion] = []
    /// The records a user's purge (`user-delete-zone`) removed from iCloud: it supersedes
    /// the saves of them made before it (the user discarded that data on purpose).
    package private(set) var purges: [Deletion] = []
    /// Identities (`Entity|values`) the app gave a model on a device that already held a
    /// model with them: twins it made on purpose (ID-5 keeps them apart).
    package private(set) var deliberateTwins: Set<String> = []
    private var positions: [Int64]
    /// Entries `hold` read ahead of `collect`, per device, for `collect` to note first.
    private var held: [[HistoryEntry]]
    /// The history position of each store when the ledger last read it (for a check).
    private var reads: [Int64]
    private var censuses: [IdentityCensus]
    private var order = 0
    /// Each entity's synchronized attribute names and identity (the schema builds the first
    /// anew on every call, and copies the entity to answer either).
    private let entities: EntityFacts

    package init(deviceCount: Int, schema: Schema) {
        positions = Array(repeating: 0, count: deviceCount)
        held = Array(repeating: [], count: deviceCount)
        reads = Array(repeating: 0, count: deviceCount)
        censuses = Array(repeating: IdentityCensus(), count: deviceCount)
        entities = EntityFacts(schema)
    }

    /// Sizes the lists for about `operations` app operations, once: grown entry by entry, a
    /// run's lists were reallocated (each save moved) several times.
    package mutating func reserveCapacity(operations: Int) {
        saves.reserveCapacity(2 * operations)
        insertions.reserveCapacity(operations)
        deletions.reserveCapacity(operations)
    }

    /// Takes what the ledger needs before a statement of the device at `index` that acts on
    /// `model` (nil for an insert) and may delete models, from its store and observation.
    package static func snapshot(
        index: Int, model: ModelID?, deletes: Bool, store: Store,
        observation: any EngineObservation
    ) -> Snapshot {
        Snapshot(
            device: index, model: model,
            values: model.flatMap { store.values(of: $0) } ?? [:],
            recordNames: deletes ? recordNames(in: store, observation: observation) : [])
    }

    /// The record name of every model the store holds, as the device's engine named them.
    private static func recordNames(in store: Store, observation: any EngineObservation)
        -> [(model: ModelID, name: String)]
    {
        // Identifiers only: the models themselves were copied out, every one of them, before
        // every delete a draw made.
        let ids = store.modelIDs
        var names: [(model: ModelID, name: String)] = []
        names.reserveCapacity(ids.count)
        for id in ids {
            if let name = observation.recordName(of: id) { names.append((id, name)) }
        }
        return names
    }

    /// Reads what the app saved on every device since the last call.
    ///
    /// `storeChanged` (`World.storeChanged`): the stores that may have changed since the
    /// ledger last read them; only those are read, and their flags cleared. `store` gives a
    /// device's store (nil for one that shares another's), `account` its account, asked only
    /// when the app saved there; `appAuthor` names the app's history entries.
    package mutating func collect(
        deviceCount: Int, storeChanged: inout [Bool], now: SimTime, snapshot: Snapshot?,
        appAuthor: String,
        store readStore: (Int) -> Store?,
        account readAccount: (Int) -> String?,
        observing observation: (Int) -> any EngineObservation
    ) {
        precondition(deviceCount == positions.count, "the ledger counts other devices")
        precondition(storeChanged.count == positions.count, "flags of other devices")
        for index in 0..<deviceCount {
            guard storeChanged[index] else {
                // Checked in debug builds (every test that explores): an unchanged store did
                // not move since the last read.
                assert(readStore(index).map { $0.lastHistoryPosition == reads[index] } ?? true,
                       "the world missed a change of a store")
                continue
            }
            // An extension shares its app's store (EXT-1): read it once, through the app.
            guard let store = readStore(index) else { continue }
            storeChanged[index] = false
            reads[index] = store.lastHistoryPosition
            guard store.lastHistoryPosition > positions[index] || !held[index].isEmpty
            else { continue }
            var entries = store.historySlice(after: positions[index])
            if !held[index].isEmpty {
                entries = ArraySlice(held[index] + entries)
                held[index] = []
            }
            positions[index] = store.lastHistoryPosition
            let account = readAccount(index) ?? ""
            let own = snapshot?.device == index ? snapshot : nil
            // Read once per device, not per change, and only for the app's changes: it is
            // built anew after every event that changed the sync data.
            let observed: any EngineObservation =
                entries.contains { $0.author == appAuthor }
                ? observation(index) : NoObservation()
            for entry in entries {
                let byApp = entry.author == appAuthor
                for change in entry.changes {
                    let twin = censuses[index].follow(change, store: store, entities: entities)
                    if byApp, let twin { deliberateTwins.insert(twin) }
                    guard byApp else { continue }
                    note(change, account: account, index: index, now: now, own: own,
                         store: store, observation: observed)
                }
            }
        }
    }

    /// Notes the records of the models a batch delete of the app removed on a device.
    package mutating func noteBatchDeletion(
        device: Int, account: String, records: [String], now: SimTime
    ) {
        batchDeletions += deletions(
            of: records, device: device, account: account, now: now)
    }

    /// Notes the records of `account` a user's purge removed from iCloud, after every save
    /// made before it (the caller collects first).
    package mutating func notePurge(account: String, records: [String], now: SimTime) {
        purges += deletions(of: records, device: -1, account: account, now: now)
    }

    /// One step of the ledger's order for records removed together.
    private mutating func deletions(
        of records: [String], device: Int, account: String, now: SimTime
    ) -> [Deletion] {
        precondition(order < Int.max, "the ledger's order overflowed")
        order += 1
        return records.map {
            Deletion(device: device, account: account, record: $0, time: now, order: order)
        }
    }

    /// Keeps what the app's store at `index` recorded since the last read, for the next
    /// `collect`: an app action a trigger ran mid-statement may be pushed and its history
    /// deleted (HIS-8) before the statement ends and the ledger reads the store.
    package mutating func hold(index: Int, store: Store) {
        guard store.lastHistoryPosition > positions[index] else { return }
        held[index] += store.historySlice(after: positions[index])
        positions[index] = store.lastHistoryPosition
    }

    private mutating func note(
        _ change: HistoryChange, account: String, index: Int, now: SimTime,
        own: Snapshot?, store: Store, observation: any EngineObservation
    ) {
        precondition(order < Int.max, "the ledger's order overflowed")
        order += 1
        switch change {
        case .inserted(let id, let entityName):
            guard let position = entities.position(of: entityName),
                let record = observation.recordName(of: id),
                let values = store.values(of: id) else { return }
            insertions.append(Insertion(device: index, record: record, model: id, order: order))
            for name in entities.synchronizedNames(at: position) {
                saves.append(ValueSave(
                    account: account, device: index, model: id, record: record,
                    entity: entityName,
                    key: name, value: values[name], prior: .none,
                    time: now, order: order))
            }
        case .updated(let id, let entityName, let keys):
            guard let position = entities.position(of: entityName),
                let record = observation.recordName(of: id),
                let values = store.values(of: id) else { return }
            let synchronized = entities.synchronizedNames(at: position)
            for key in keys where synchronized.contains(key) {
                var prior = Prior.unknown
                if let own, own.model == id { prior = .known(own.values[key]) }
                saves.append(ValueSave(
                    account: account, device: index, model: id, record: record,
                    entity: entityName, key: key, value: values[key], prior: prior,
                    time: now, order: order))
            }
        case .deleted(let id, _, _):
            guard let record = own?.recordName(of: id) ?? observation.recordName(of: id) else {
                return
            }
            deletions.append(Deletion(
                device: index, account: account, record: record, time: now, order: order))
        }
    }
}

/// Stands for a device's observation where no app change needs one (never asked).
private struct NoObservation: EngineObservation {
    func recordName(of model: ModelID) -> String? { preconditionFailure("not read") }
    func model(forRecord name: String) -> ModelID? { preconditionFailure("not read") }
    var pendingCount: Int { preconditionFailure("not read") }
    var hasDownloadedOnce: Bool { preconditionFailure("not read") }
}

extension SaveLedger {
    /// The ledger with each change made while its device was signed out counted for the
    /// account the device is signed into now: such a change waits on the device and goes to
    /// the account it signs into next (ACCT-1), which the heal makes the one it left.
    package func attributingSignedOutChanges(to accounts: [String?]) -> SaveLedger {
        guard saves.contains(where: { $0.account.isEmpty })
            || deletions.contains(where: { $0.account.isEmpty })
            || batchDeletions.contains(where: { $0.account.isEmpty }) else { return self }
        var ledger = self
        for index in ledger.saves.indices where ledger.saves[index].account.isEmpty {
            ledger.saves[index].account = accounts[ledger.saves[index].device] ?? ""
        }
        func attribute(_ list: inout [Deletion]) {
            for index in list.indices where list[index].account.isEmpty {
                list[index].account = accounts[list[index].device] ?? ""
            }
        }
        attribute(&ledger.deletions)
        attribute(&ledger.batchDeletions)
        return ledger
    }
}

extension SaveLedger {
    /// The ledger with each save or deletion of a record that lives in a zone another account
    /// shared with the saving device's account counted for that zone's owner: a participant's
    /// save of a shared record goes to the owner's zone, so the owner's iCloud and devices are
    /// where it must be (the device's own account never holds that record).
    ///
    /// A record counts as another account's when the saving account's app zones lack it and
    /// exactly one other account holds it in an app zone it shared with the saving account
    /// (a share that stands at the end, or one the saving account lost since), or deleted it
    /// there (the owner's deletion after the participant's save), or its zone keeps the
    /// record's tombstone (a participant's deletion, which a zone-wide share permits). The
    /// other way round, an owner's save counts for the one participant whose app zones hold a
    /// record the owner's zones lack and keep the tombstone of (moved out of the share).
    package func attributingSharedRecords(_ world: WorldSnapshot, accounts: [String])
        -> SaveLedger
    {
        let pairs = accounts.flatMap { participant in
            accounts.filter { owner in
                owner != participant && Self.shares(world, owner, with: participant)
            }.map { (participant: participant, owner: $0) }
        }
        guard !pairs.isEmpty else { return self }
        let deletedBy = Set(deletions.map { OwnedRecord(account: $0.account, record: $0.record) })
        func owner(of record: String, savedBy account: String) -> String? {
            let owners = pairs.filter { $0.participant == account }.map(\.owner)
            guard !owners.isEmpty, !world.hasAppRecord(named: record, of: account) else {
                return nil
            }
            let holding = owners.filter {
                world.hasAppRecord(named: record, of: $0)
                    || deletedBy.contains(OwnedRecord(account: $0, record: record))
                    || world.hasAppTombstone(named: record, of: $0)
            }
            return holding.count == 1 ? holding[0] : nil
        }
        // A record of the saving account's share that a participant moved out of it into his
        // own zone (sds's ID-4): the share's zone keeps its tombstone, the participant holds it.
        func mover(of record: String, savedBy account: String) -> String? {
            let participants = pairs.filter { $0.owner == account }.map(\.participant)
            guard !participants.isEmpty, !world.hasAppRecord(named: record, of: account),
                  world.hasAppTombstone(named: record, of: account) else { return nil }
            let holding = participants.filter { world.hasAppRecord(named: record, of: $0) }
            return holding.count == 1 ? holding[0] : nil
        }
        var ledger = self
        for index in ledger.saves.indices {
            let save = ledger.saves[index]
            if let owner = owner(of: save.record, savedBy: save.account)
                ?? mover(of: save.record, savedBy: save.account) {
                ledger.saves[index].account = owner
            }
        }
        for index in ledger.deletions.indices {
            let deletion = ledger.deletions[index]
            if let owner = owner(of: deletion.record, savedBy: deletion.account) {
                ledger.deletions[index].account = owner
            }
        }
        return ledger
    }

    /// A record deleted by an account's device (asked only, never iterated).
    private struct OwnedRecord: Hashable {
        var account: String
        var record: String
    }

    /// Whether an app zone of `owner` is, or was, in `participant`'s shared database.
    private static func shares(
        _ world: WorldSnapshot, _ owner: String, with participant: String
    ) -> Bool {
        // The codec's zones and those an engine makes on the fly (a collection's zone).
        let shared = world.cloud.sharedZones(of: participant)
        if shared.contains(where: {
            $0.owner == owner && world.codec.holdsRecords(inZoneNamed: $0.name)
        }) { return true }
        return AppRecords.zones(of: owner, cloud: world.cloud, codec: world.codec).contains {
            world.cloud.accessLoss(of: participant, to: $0) != nil
        }
    }
}

extension SaveLedger.ValueSave {
    /// For other modules (this one uses the memberwise initializer).
    package init(
        device: Int, account: String, model: ModelID, record: String, entity: String,
        key: String, value: LocalStore.AttributeValue?, prior: SaveLedger.Prior,
        time: SimTime, order: Int
    ) {
        self.device = device
        self.account = account
        self.model = model
        self.record = record
        self.entity = entity
        self.key = key
        self.value = value
        self.prior = prior
        self.time = time
        self.order = order
    }
}
