import CloudSim
import LocalStore
import SyncContract

/// A codec that is the standard layout plus something of its own (zones made on the fly,
/// zone-wide shares): it names its layout and gets the rest of `RecordCodec` from it.
public protocol StandardCodecWrapper: RecordCodec {
    var standard: StandardRecordCodec { get }
}

extension StandardCodecWrapper {
    public var zoneNames: [String] { standard.zoneNames }

    public func recordType(ofEntity entity: String) -> String {
        standard.recordType(ofEntity: entity)
    }

    public func entity(ofRecordType type: String) -> String? {
        standard.entity(ofRecordType: type)
    }

    public func value(
        of attribute: String, type: AttributeType, in record: CloudRecord
    ) -> AttributeValue? {
        standard.value(of: attribute, type: type, in: record)
    }

    public func reference(of relationship: String, in record: CloudRecord) -> String? {
        standard.reference(of: relationship, in: record)
    }
}
