import CloudSim
import SyncContract

/// The contents of a record's overflow asset, the field `SDSOverflow` (BIG-2), and their
/// byte encoding.
///
/// The encoding is deterministic: the same contents always give the same bytes. All lengths
/// and counts are big-endian.
///
/// ```
/// "SDSO"                       4 bytes, magic
/// 0x01                         1 byte, format version
/// UInt16 n, n × stamp          the asset's history: UInt16 length + UTF-8, oldest first
/// UInt32 m, m × entry          the values, sorted by key:
///     UInt16 length + key UTF-8
///     tag byte                 's' text (UTF-8) or 'x' data
///     UInt32 length + bytes
/// ```
///
/// The history names every upload of the asset it descends from (`device@changeTag`: the
/// device that uploaded it and the change tag of the record version it was merged onto), so
/// a device can tell that its own upload was overwritten by one that never saw it (LIM-6).
public struct OverflowAsset: Hashable, Sendable {
    /// A value kept in the asset: only texts and data ever move there (BIG-2).
    public enum Value: Hashable, Sendable {
        case text(String)
        case data([UInt8])

        /// The value a text or data field would hold; nil for other field values.
        public init?(_ value: CloudValue) {
            switch value {
            case .string(let text): self = .text(text)
            case .bytes(let bytes): self = .data(bytes)
            default: return nil
            }
        }

        /// The field value this entry stands for, as if the record held it in its own field.
        public var cloudValue: CloudValue {
            switch self {
            case .text(let text): return .string(text)
            case .data(let bytes): return .bytes(bytes)
            }
        }
    }

    /// The most stamps the history keeps; older ones are dropped.
    public static let historyLimit = 32
    static let magic: [UInt8] = Array("SDSO".utf8)
    static let version: UInt8 = 1
    static let textTag = UInt8(ascii: "s")
    static let dataTag = UInt8(ascii: "x")

    /// Key → value.
    public var entries: [String: Value]
    /// Stamps of the uploads this asset descends from, oldest first, its own last.
    public var history: [String]

    public init(entries: [String: Value] = [:], history: [String] = []) {
        self.entries = entries
        self.history = history
    }

    /// The keys it holds, sorted.
    public var sortedKeys: [String] { entries.keys.sorted() }

    /// The asset with one more upload in its history (the oldest stamps dropped past the
    /// limit).
    public func stamped(_ stamp: String) -> OverflowAsset {
        var copy = self
        copy.history.append(stamp)
        if copy.history.count > Self.historyLimit {
            copy.history.removeFirst(copy.history.count - Self.historyLimit)
        }
        return copy
    }

    // MARK: Encoding

    /// The asset's bytes.
    public var encoded: [UInt8] {
        var bytes = Self.magic
        bytes.append(Self.version)
        append(UInt64(history.count), width: 2, to: &bytes)
        for stamp in history {
            let utf8 = Array(stamp.utf8)
            append(UInt64(utf8.count), width: 2, to: &bytes)
            bytes += utf8
        }
        append(UInt64(entries.count), width: 4, to: &bytes)
        for key in sortedKeys {
            guard let value = entries[key] else { continue }
            let name = Array(key.utf8)
            append(UInt64(name.count), width: 2, to: &bytes)
            bytes += name
            switch value {
            case .text(let text):
                let utf8 = Array(text.utf8)
                bytes.append(Self.textTag)
                append(UInt64(utf8.count), width: 4, to: &bytes)
                bytes += utf8
            case .data(let data):
                bytes.append(Self.dataTag)
                append(UInt64(data.count), width: 4, to: &bytes)
                bytes += data
            }
        }
        return bytes
    }

    /// Reads an encoded asset; nil when the bytes are not one (e.g. an asset whose contents
    /// were not sent, as in `serverRecordChanged`).
    public static func decode(_ bytes: [UInt8]) -> OverflowAsset? {
        var reader = ByteReader(bytes: bytes)
        guard reader.take(magic.count) == magic, reader.take(1) == [version],
              let stampCount = reader.number(width: 2) else { return nil }
        var asset = OverflowAsset()
        for _ in 0..<stampCount {
            guard let length = reader.number(width: 2), let utf8 = reader.take(length) else {
                return nil
            }
            asset.history.append(String(decoding: utf8, as: UTF8.self))
        }
        guard let entryCount = reader.number(width: 4) else { return nil }
        for _ in 0..<entryCount {
            guard let keyLength = reader.number(width: 2), let key = reader.take(keyLength),
                  let tag = reader.take(1)?.first, let length = reader.number(width: 4),
                  let payload = reader.take(length) else { return nil }
            let name = String(decoding: key, as: UTF8.self)
            switch tag {
            case textTag: asset.entries[name] = .text(String(decoding: payload, as: UTF8.self))
            case dataTag: asset.entries[name] = .data(payload)
            default: return nil
            }
        }
        return reader.isAtEnd ? asset : nil
    }

    /// The asset a field value holds; nil when the value is not an overflow asset.
    public static func decode(_ value: CloudValue?) -> OverflowAsset? {
        guard case .asset(let bytes)? = value else { return nil }
        return decode(bytes)
    }

    private func append(_ number: UInt64, width: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: number >> UInt64(shift)))
        }
    }
}

/// Reads an encoded overflow asset front to back.
private struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    /// The next `count` bytes, or nil when fewer are left.
    mutating func take(_ count: Int) -> [UInt8]? {
        guard count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    /// A big-endian unsigned number of `width` bytes.
    mutating func number(width: Int) -> Int? {
        guard let part = take(width) else { return nil }
        return part.reduce(0) { $0 << 8 | Int($1) }
    }
}
