import Kernel

/// An app persists the serialization on every state update, so it encodes as one opaque
/// string (as Apple's does as one opaque value) rather than a tree of keys its encoder walks.
extension CKSyncEngine.State.Serialization: Codable {
    private static let version = "state-1"

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        var reader = PackedText.Reader(try container.decode(String.self))
        do {
            guard try reader.text() == Self.version else { throw PackedText.Malformed(offset: 0) }
            try self.init(reading: &reader)
            guard reader.isAtEnd else { throw PackedText.Malformed(offset: 0) }
        } catch {
            throw DecodingError.dataCorruptedError(in: container,
                debugDescription: "not a CKSyncEngine.State.Serialization (\(error))")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var packed = PackedText()
        packed.append(Self.version)
        if let databaseToken {
            packed.append(true)
            packed.append(databaseToken.account)
            packed.append(databaseToken.scope)
            packed.append(databaseToken.sequence)
            packed.append(databaseToken.epoch)
        } else {
            packed.append(false)
        }
        packed.append(zoneTokens.count)
        for token in zoneTokens {
            append(token.zone, to: &packed)
            packed.append(token.incarnation)
            packed.append(token.sequence)
            packed.append(token.epoch)
            packed.append(token.participant)
        }
        packed.append(subscriptionSaved)
        packed.append(lastUserRecordName)
        packed.append(pendingDatabaseChanges.count)
        for change in pendingDatabaseChanges {
            packed.append(change.delete)
            append(change.zone, to: &packed)
        }
        packed.append(pendingRecordZoneChanges.count)
        for change in pendingRecordZoneChanges {
            packed.append(change.delete)
            append(change.zone, to: &packed)
            packed.append(change.recordName)
        }
        packed.append(unfetchedZones.count)
        for zone in unfetchedZones { append(zone, to: &packed) }
        packed.append(hasPendingUntrackedChanges)
        var container = encoder.singleValueContainer()
        try container.encode(packed.text)
    }

    private func append(_ zone: Zone, to packed: inout PackedText) {
        packed.append(zone.owner)
        packed.append(zone.name)
    }

    private init(reading reader: inout PackedText.Reader) throws(PackedText.Malformed) {
        var databaseToken: DatabaseToken?
        if try reader.flag() {
            databaseToken = DatabaseToken(account: try reader.text(), scope: try reader.text(),
                sequence: try reader.int64(), epoch: try reader.int64())
        }
        var zoneTokens: [ZoneToken] = []
        for _ in 0..<(try Self.count(&reader)) {
            zoneTokens.append(ZoneToken(zone: try Self.zone(&reader),
                incarnation: try reader.int64(), sequence: try reader.int64(),
                epoch: try reader.int64(), participant: try reader.optional()))
        }
        let subscriptionSaved = try reader.flag()
        let lastUserRecordName = try reader.optional()
        var databaseChanges: [DatabaseChange] = []
        for _ in 0..<(try Self.count(&reader)) {
            databaseChanges.append(DatabaseChange(delete: try reader.flag(),
                zone: try Self.zone(&reader)))
        }
        var recordChanges: [RecordChange] = []
        for _ in 0..<(try Self.count(&reader)) {
            recordChanges.append(RecordChange(delete: try reader.flag(),
                zone: try Self.zone(&reader), recordName: try reader.text()))
        }
        var unfetchedZones: [Zone] = []
        for _ in 0..<(try Self.count(&reader)) { unfetchedZones.append(try Self.zone(&reader)) }
        self.init(databaseToken: databaseToken, zoneTokens: zoneTokens,
            subscriptionSaved: subscriptionSaved, lastUserRecordName: lastUserRecordName,
            pendingDatabaseChanges: databaseChanges, pendingRecordZoneChanges: recordChanges,
            unfetchedZones: unfetchedZones, hasPendingUntrackedChanges: try reader.flag())
    }

    private static func zone(_ reader: inout PackedText.Reader) throws(PackedText.Malformed)
        -> Zone {
        Zone(owner: try reader.text(), name: try reader.text())
    }

    /// A count read back; a negative one is not a count.
    private static func count(_ reader: inout PackedText.Reader) throws(PackedText.Malformed)
        -> Int {
        let count = try reader.int()
        guard count >= 0 else { throw PackedText.Malformed(offset: 0) }
        return count
    }
}

// Each part's own init takes the engine's value; reading back needs the fields one by one.
extension CKSyncEngine.State.Serialization.Zone {
    init(owner: String, name: String) { self.owner = owner; self.name = name }
}

extension CKSyncEngine.State.Serialization.DatabaseToken {
    init(account: String, scope: String, sequence: Int64, epoch: Int64) {
        self.account = account
        self.scope = scope
        self.sequence = sequence
        self.epoch = epoch
    }
}

extension CKSyncEngine.State.Serialization.ZoneToken {
    init(zone: CKSyncEngine.State.Serialization.Zone, incarnation: Int64, sequence: Int64,
         epoch: Int64, participant: String?) {
        self.zone = zone
        self.incarnation = incarnation
        self.sequence = sequence
        self.epoch = epoch
        self.participant = participant
    }
}

extension CKSyncEngine.State.Serialization.DatabaseChange {
    init(delete: Bool, zone: CKSyncEngine.State.Serialization.Zone) {
        self.delete = delete
        self.zone = zone
    }
}

extension CKSyncEngine.State.Serialization.RecordChange {
    init(delete: Bool, zone: CKSyncEngine.State.Serialization.Zone, recordName: String) {
        self.delete = delete
        self.zone = zone
        self.recordName = recordName
    }
}
