import CloudSim
import Kernel
import Scenario

/// `cloud: put-record …` and `cloud: serve-old-version …`: server data a real cloud can serve
/// that no device of the story saved (docs/FORMAT.md, *Cloud actions*).
extension World {
    /// Stores the record in the account's first app zone as the server holds it.
    func putServerRecord(
        _ account: String, _ type: String, _ name: String, _ fields: [Assignment]
    ) {
        let zone = appZones(of: account)[0]
        var record = CloudRecord(recordType: type, recordName: name, zone: zone)
        labels.resolveNames(devices: devices)
        for field in fields {
            guard let value = cloudValue(field.value.literal) else { continue }
            record.fields[field.key.value] = value
        }
        guard let outcome = cloud.writeServerRecord(record, now: now) else {
            fail("zone '\(zone.name)' of account '\(account)' does not exist yet")
            return
        }
        applyNotes(outcome.notes)
        sendPushes(outcome.pushes)
    }

    /// The next fetch of the zone holding the label's record serves its previous version.
    func serveOldVersion(_ account: String, _ label: String) {
        labels.resolveNames(devices: devices)
        guard let name = labels.recordName(of: label),
              let record = appRecord(named: name, of: account)
        else {
            fail("label '\(label)' has no record in a zone of account '\(account)'")
            return
        }
        guard cloud.serveOldVersion(of: name, in: record.zone) else {
            fail("record \(name) of '\(label)' has no older version (it was saved once)")
            return
        }
    }

    /// A literal as the server stores it (`raw` reads values the same way).
    private func cloudValue(_ literal: ValueLiteral) -> CloudValue? {
        switch literal {
        case .string(let text): return .string(text)
        case .integer(let number): return .int(number)
        case .decimal(let text): return Double(text).map(CloudValue.double)
        case .bool(let flag): return .int(flag ? 1 : 0)
        case .null: return nil
        case .label(let target): return labels.recordName(of: target).map { .reference($0) }
        case .generatedText(let count):
            return .string(ValueConversion.generatedText(byteCount: count))
        case .generatedBytes(let count):
            return .bytes(ValueConversion.generatedBytes(byteCount: count))
        case .hexData(let bytes): return .bytes(bytes)
        }
    }
}
