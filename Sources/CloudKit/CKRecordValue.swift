import CloudSim
import Foundation

/// A value a `CKRecord` field holds (Apple's `CKRecordValueProtocol`): strings, numbers,
/// Bools, dates, data, locations excepted, references, assets and arrays of them.
///
/// CloudKit keeps every integer and Bool as INT64 and every floating-point number as DOUBLE,
/// so a field reads back as an `NSNumber`: `as? Int`, `as? Int64`, `as? Bool` and `as? Double`
/// all succeed whatever integer type was written, as on Apple platforms.
public protocol CKRecordValueProtocol {}

/// Apple's name for the values a record's subscript takes and returns.
public typealias CKRecordValue = CKRecordValueProtocol

extension String: CKRecordValueProtocol {}
extension NSString: CKRecordValueProtocol {}
extension NSNumber: CKRecordValueProtocol {}
extension Int: CKRecordValueProtocol {}
extension Int8: CKRecordValueProtocol {}
extension Int16: CKRecordValueProtocol {}
extension Int32: CKRecordValueProtocol {}
extension Int64: CKRecordValueProtocol {}
extension UInt: CKRecordValueProtocol {}
extension UInt8: CKRecordValueProtocol {}
extension UInt16: CKRecordValueProtocol {}
extension UInt32: CKRecordValueProtocol {}
extension UInt64: CKRecordValueProtocol {}
extension Bool: CKRecordValueProtocol {}
extension Double: CKRecordValueProtocol {}
extension Float: CKRecordValueProtocol {}
extension Date: CKRecordValueProtocol {}
extension NSDate: CKRecordValueProtocol {}
extension Data: CKRecordValueProtocol {}
extension NSData: CKRecordValueProtocol {}
extension Array: CKRecordValueProtocol where Element: CKRecordValueProtocol {}

/// Conversions between the values apps write and what the simulated cloud stores.
enum RecordValues {
    /// What the cloud stores for a value; nil for a type CloudKit does not store.
    static func cloudValue(_ value: any CKRecordValueProtocol) -> CloudValue? {
        switch value {
        case let text as String: return .string(text)
        case let text as NSString: return .string(text as String)
        case let flag as Bool: return .int(flag ? 1 : 0)
        case let number as Int: return .int(Int64(number))
        case let number as Int64: return .int(number)
        case let number as Int32: return .int(Int64(number))
        case let number as Int16: return .int(Int64(number))
        case let number as Int8: return .int(Int64(number))
        case let number as UInt: return .int(Int64(truncatingIfNeeded: number))
        case let number as UInt64: return .int(Int64(truncatingIfNeeded: number))
        case let number as UInt32: return .int(Int64(number))
        case let number as UInt16: return .int(Int64(number))
        case let number as UInt8: return .int(Int64(number))
        case let number as Double: return .double(number)
        case let number as Float: return .double(Double(number))
        case let number as NSNumber: return numberValue(number)
        case let date as Date: return .date(millisecondsSince1970: milliseconds(of: date))
        case let date as NSDate: return .date(millisecondsSince1970: milliseconds(of: date as Date))
        case let data as Data: return .bytes(Array(data))
        case let data as NSData: return .bytes(Array(data as Data))
        case let reference as CKRecord.Reference:
            return .reference(reference.recordID.recordName,
                              action: reference.action == .deleteSelf ? .deleteSelf : .none)
        case let asset as CKAsset: return .asset(asset.contents)
        default: return list(value)
        }
    }

    private static func numberValue(_ number: NSNumber) -> CloudValue {
        let type = String(cString: number.objCType)
        return type == "d" || type == "f" ? .double(number.doubleValue) : .int(number.int64Value)
    }

    private static func list(_ value: any CKRecordValueProtocol) -> CloudValue? {
        guard let elements = value as? [any CKRecordValueProtocol] else { return nil }
        var values: [CloudValue] = []
        for element in elements {
            guard let converted = cloudValue(element) else { return nil }
            values.append(converted)
        }
        return .list(values)
    }

    /// CloudKit keeps dates to the millisecond.
    static func milliseconds(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// The value an app reads for what the cloud stores (`zone`: the record's zone, for a
    /// reference's record ID).
    static func recordValue(_ value: CloudValue,
        zone: CKRecordZone.ID) -> any CKRecordValueProtocol {
        switch value {
        case .string(let text): return text
        case .int(let number): return NSNumber(value: number)
        case .double(let number): return NSNumber(value: number)
        case .date(let milliseconds):
            return Date.init(timeIntervalSince1970: Double(milliseconds) / 1000)
        case .bytes(let bytes): return Data(bytes)
        case .reference(let name, let action):
            return CKRecord.Reference(
                recordID: CKRecord.ID(recordName: name, zoneID: zone),
                action: action == .deleteSelf ? .deleteSelf : .none)
        case .asset(let bytes): return CKAsset(contents: bytes)
        case .list(let values): return listValue(values, zone: zone)
        }
    }

    private static func listValue(_ values: [CloudValue],
        zone: CKRecordZone.ID) -> any CKRecordValueProtocol {
        switch values.first {
        case .string?: return values.map { recordValue($0, zone: zone) as? String ?? "" }
        case .int?, .double?: return values.map { recordValue($0,
            zone: zone) as? NSNumber ?? NSNumber(value: 0) }
        case .date?: return values.map { recordValue($0,
            zone: zone) as? Date ?? Date.init(timeIntervalSince1970: 0) }
        case .bytes?: return values.map { recordValue($0, zone: zone) as? Data ?? Data() }
        case .reference?: return values.compactMap { recordValue($0,
            zone: zone) as? CKRecord.Reference }
        case .asset?: return values.compactMap { recordValue($0, zone: zone) as? CKAsset }
        case .list?, nil: return [String]()
        }
    }
}
