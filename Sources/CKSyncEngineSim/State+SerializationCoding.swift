import CloudSim
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

    /// Read back through the engine's own values, as the state made them.
    private init(reading reader: inout PackedText.Reader) throws(PackedText.Malformed) {
        var databaseToken: DatabaseToken?
        if try reader.flag() {
            let account = try reader.text()
            guard let scope = DatabaseScope(rawValue: try reader.text()) else {
                throw PackedText.Malformed(offset: 0)
            }
            databaseToken = DatabaseToken(DatabaseChangeToken(account: account, scope: scope,
                sequence: try reader.int64(), epoch: try reader.int64()))
        }
        var zoneTokens: [ZoneToken] = []
        for _ in 0..<(try Self.count(&reader)) {
            var token = ZoneChangeToken(zone: try Self.zone(&reader),
                incarnation: try reader.int64(), sequence: try reader.int64(),
                epoch: try reader.int64())
            token.participant = try reader.optional()
            zoneTokens.append(ZoneToken(token))
        }
        let subscriptionSaved = try reader.flag()
        let lastUserRecordName = try reader.optional()
        var databaseChanges: [DatabaseChange] = []
        for _ in 0..<(try Self.count(&reader)) {
            let delete = try reader.flag()
            let zone = try Self.zone(&reader)
            databaseChanges.append(DatabaseChange(delete ? .deleteZone(zone) : .saveZone(zone)))
        }
        var recordChanges: [RecordChange] = []
        for _ in 0..<(try Self.count(&reader)) {
            let delete = try reader.flag()
            let zone = try Self.zone(&reader)
            let id = RecordID(recordName: try reader.text(), zoneID: zone)
            recordChanges.append(RecordChange(delete ? .deleteRecord(id) : .saveRecord(id)))
        }
        var unfetchedZones: [Zone] = []
        for _ in 0..<(try Self.count(&reader)) {
            unfetchedZones.append(Zone(try Self.zone(&reader)))
        }
        self.init(databaseToken: databaseToken, zoneTokens: zoneTokens,
            subscriptionSaved: subscriptionSaved, lastUserRecordName: lastUserRecordName,
            pendingDatabaseChanges: databaseChanges, pendingRecordZoneChanges: recordChanges,
            unfetchedZones: unfetchedZones, hasPendingUntrackedChanges: try reader.flag())
    }

    private static func zone(_ reader: inout PackedText.Reader) throws(PackedText.Malformed)
        -> ZoneID {
        ZoneID(owner: try reader.text(), name: try reader.text())
    }

    /// A count read back; a negative one is not a count.
    private static func count(_ reader: inout PackedText.Reader) throws(PackedText.Malformed)
        -> Int {
        let count = try reader.int()
        guard count >= 0 else { throw PackedText.Malformed(offset: 0) }
        return count
    }
}
