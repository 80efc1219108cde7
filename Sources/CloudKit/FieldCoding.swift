import CloudSim
import Foundation
import SortedMaps

/// A whole record's fields in an archive (`CKRecord.encode(with:)`): JSON of tagged values,
/// in key order, so equal records archive to equal bytes.
enum FieldCoding {
    private struct Coded: Codable {
        var key: String
        var value: Value
        var encrypted: Bool
    }

    private indirect enum Value: Codable {
        case string(String)
        case int(Int64)
        case double(Double)
        case date(Int64)
        case bytes([UInt8])
        case reference(String, deleteSelf: Bool)
        case asset([UInt8])
        case list([Value])

        init(_ value: CloudValue) {
            switch value {
            case .string(let text): self = .string(text)
            case .int(let number): self = .int(number)
            case .double(let number): self = .double(number)
            case .date(let milliseconds): self = .date(milliseconds)
            case .bytes(let bytes): self = .bytes(bytes)
            case .reference(let name, let action): self = .reference(name,
                deleteSelf: action == .deleteSelf)
            case .asset(let bytes): self = .asset(bytes)
            case .list(let values): self = .list(values.map(Value.init))
            }
        }

        var cloudValue: CloudValue {
            switch self {
            case .string(let text): return .string(text)
            case .int(let number): return .int(number)
            case .double(let number): return .double(number)
            case .date(let milliseconds): return .date(millisecondsSince1970: milliseconds)
            case .bytes(let bytes): return .bytes(bytes)
            case .reference(let name, let deleteSelf): return .reference(name,
                action: deleteSelf ? .deleteSelf : .none)
            case .asset(let bytes): return .asset(bytes)
            case .list(let values): return .list(values.map(\.cloudValue))
            }
        }
    }

    static func encode(_ fields: SortedMap<String, CloudValue>, encrypted: Set<String>) -> Data {
        let coded = fields.map { Coded(key: $0.key, value: Value($0.value),
            encrypted: encrypted.contains($0.key)) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(coded)) ?? Data()
    }

    static func decode(_ data: Data) -> (fields: SortedMap<String, CloudValue>,
        encrypted: Set<String>)? {
        guard let coded = try? JSONDecoder().decode([Coded].self, from: data) else { return nil }
        var fields: SortedMap<String, CloudValue> = [:]
        var encrypted: Set<String> = []
        for entry in coded {
            fields[entry.key] = entry.value.cloudValue
            if entry.encrypted { encrypted.insert(entry.key) }
        }
        return (fields, encrypted)
    }
}
