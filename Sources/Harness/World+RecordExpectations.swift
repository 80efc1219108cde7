import CloudSim
import Scenario

/// `expect cloud ACCOUNT: LABEL in zone NAME` and `… LABEL raw FIELD=VALUE …`: the record as
/// the cloud stores it, beside the values the engine's record layout gives.
extension World {
    /// The zone of the account's private database that holds the label's record.
    func checkRecordZone(_ account: String, _ label: String, _ zone: String) -> (Bool, String) {
        guard let name = labels.recordName(of: label) else {
            return (false, "\(label) has no record")
        }
        guard let record = appRecord(named: name, of: account) else {
            return (false, "no record \(name) in \(account)'s zones")
        }
        return (record.zone.name == zone, "in zone \"\(record.zone.name)\"")
    }

    /// The record's stored fields by their field names: no engine layout, no conversion.
    func checkRawValues(
        _ account: String, _ label: String, _ values: [Assignment]
    ) -> (Bool, String) {
        guard let name = labels.recordName(of: label) else {
            return (false, "\(label) has no record")
        }
        guard let record = appRecord(named: name, of: account) else {
            return (false, "no record \(name) in \(account)'s zones")
        }
        var mismatches: [String] = []
        for assignment in values {
            let key = assignment.key.value
            let actual = record.fields[key]
            if !rawValue(actual, matches: assignment.value.literal) {
                mismatches.append("\(key)=\(actual.map(Self.describe) ?? "nil")")
            }
        }
        let found = mismatches.isEmpty ? "" : "\(label) " + mismatches.joined(separator: " ")
        return (mismatches.isEmpty, found)
    }

    /// Whether a stored value is what a literal writes; CloudKit has no Bool, so `true` and
    /// `false` match nothing (the validator says to write 1 or 0).
    func rawValue(_ actual: CloudValue?, matches literal: ValueLiteral) -> Bool {
        guard let actual else {
            if case .null = literal { return true }
            return false
        }
        switch (literal, actual) {
        case (.string(let text), .string(let stored)),
             (.string(let text), .reference(let stored, _)):
            return text == stored
        case (.string(let text), .date(let stored)):
            return ISODate.millisecondsSince1970(text) == stored
        case (.label(let target), .reference(let stored, _)),
             (.label(let target), .string(let stored)):
            return labels.recordName(of: target) == stored
        case (.integer(let number), .int(let stored)):
            return number == stored
        case (.integer(let number), .double(let stored)):
            return Double(number) == stored
        case (.decimal(let text), .double(let stored)):
            return Double(text) == stored
        case (.generatedText(let count), .string(let stored)):
            return stored == ValueConversion.generatedText(byteCount: count)
        case (.hexData, .bytes(let stored)), (.hexData, .asset(let stored)),
             (.generatedBytes, .bytes(let stored)), (.generatedBytes, .asset(let stored)),
             (.generatedText, .asset(let stored)), (.string, .asset(let stored)):
            return Self.bytes(of: literal) == stored
        default:
            return false
        }
    }

    /// The bytes a data or text literal stands for.
    private static func bytes(of literal: ValueLiteral) -> [UInt8]? {
        switch literal {
        case .hexData(let bytes): return bytes
        case .generatedBytes(let count): return ValueConversion.generatedBytes(byteCount: count)
        case .generatedText(let count):
            return Array(ValueConversion.generatedText(byteCount: count).utf8)
        case .string(let text): return Array(text.utf8)
        default: return nil
        }
    }
}
