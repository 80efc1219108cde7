import CloudSim
import LocalStore

/// How an engine lays the scenario's models out in iCloud: the zones it keeps an account's
/// records in, its record types and fields, and how values are encoded in them.
///
/// `expect cloud …`, `expect converged`, the final-state tables and the checkers read the
/// cloud only through it, so they read any engine's records.
public protocol RecordCodec: Sendable {
    /// The zone names the engine keeps an account's records in; the first is the one the
    /// cloud's zone faults (`delete-zone`, `user-delete-zone`) and sharing act on.
    var zoneNames: [String] { get }
    /// The record type of an entity's records.
    func recordType(ofEntity entity: String) -> String
    /// The entity a record type stands for, nil when the record is not a model's.
    func entity(ofRecordType type: String) -> String?
    /// An attribute's value as the record holds it (nil: the record leaves it out).
    func value(of attribute: String, type: AttributeType, in record: CloudRecord) -> AttributeValue?
    /// The record name a relationship refers to, nil when the record leaves it out.
    func reference(of relationship: String, in record: CloudRecord) -> String?
    /// Whether a zone of an account holds the engine's records besides `zoneNames` (zones
    /// the engine creates on the fly, such as `outbox`'s `Collection-*`). Default: no.
    func holdsRecords(inZoneNamed name: String) -> Bool
    /// For an engine that shares whole zones: the zone a `share ROOT …` step shares (a
    /// zone-wide share); nil (the default) for a hierarchy share of the root record.
    func sharedZoneName(ofRoot recordName: String) -> String?
}

extension RecordCodec {
    public func holdsRecords(inZoneNamed name: String) -> Bool { zoneNames.contains(name) }
    public func sharedZoneName(ofRoot recordName: String) -> String? { nil }
}
