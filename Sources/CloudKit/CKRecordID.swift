import CloudSim
import Foundation
import Synchronization

/// A record's identity (Apple's `CKRecord.ID`, `CKRecordID` in Objective-C): its name and
/// its zone. A top-level class under Apple's Objective-C name, so that `NSKeyedArchiver` can
/// name it in an archive (Foundation on Linux names no nested class); `CKRecord.ID` is an
/// alias of it.
public final class CKRecordID: NSObject, NSSecureCoding, @unchecked Sendable {
    // `@unchecked`: immutable after init.
    public static var supportsSecureCoding: Bool { true }

    public let recordName: String
    public let zoneID: CKRecordZone.ID

    /// A new record's ID with a name of the device's own draw (a UUID on Apple platforms;
    /// here the simulation's seeded names, so runs repeat).
    public convenience init(zoneID: CKRecordZone.ID = .default) {
        self.init(recordName: DeviceRuntime.current?.makeRecordName() ?? Self.outsideName(),
            zoneID: zoneID)
    }

    private static let outsideCount = Mutex(0)

    /// A name for an ID made outside any device's code (a test's own): numbered in order.
    private static func outsideName() -> String {
        let number = outsideCount.withLock { count -> Int in
            count += 1
            return count
        }
        return "record-\(number)"
    }

    public init(recordName: String, zoneID: CKRecordZone.ID = .default) {
        self.recordName = recordName
        self.zoneID = zoneID
    }

    public required init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "recordName"),
              let zone = coder.decodeObject(of: CKRecordZone.ID.self,
                  forKey: "zoneID") else { return nil }
        recordName = name as String
        zoneID = zone
    }

    public func encode(with coder: NSCoder) {
        coder.encode(recordName as NSString, forKey: "recordName")
        coder.encode(zoneID, forKey: "zoneID")
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CKRecordID else { return false }
        return other.recordName == recordName && other.zoneID == zoneID
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(recordName)
        hasher.combine(zoneID.hash)
        return hasher.finalize()
    }

    public override var description: String {
        "<CKRecordID: recordName=\(recordName), zoneID=\(zoneID.zoneName):\(zoneID.ownerName)>"
    }
}

extension CKRecord {
    /// Apple's Swift name of a record's identity.
    public typealias ID = CKRecordID
    /// Apple's Swift name of a reference to another record.
    public typealias Reference = CKReference
    /// Apple's field-key type (a `String`).
    public typealias FieldKey = String
    /// Apple's record-type type (a `String`).
    public typealias RecordType = String
}

/// A file attached to a record (Apple's `CKAsset`); the simulated cloud keeps its bytes.
public final class CKAsset: NSObject, CKRecordValueProtocol, @unchecked Sendable {
    // `@unchecked`: immutable after init.
    /// Where the file is: the app's file for an asset it made; a downloaded asset's bytes are
    /// written to the device's caches directory when first asked for.
    public let fileURL: URL?
    let bytes: [UInt8]?

    public init(fileURL: URL) {
        self.fileURL = fileURL
        bytes = nil
    }

    init(contents: [UInt8]) {
        bytes = contents
        fileURL = DeviceRuntime.current.flatMap { $0.container.writeAsset(contents) }
    }

    /// The bytes the cloud stores: read from the file when the record is saved.
    var contents: [UInt8] {
        if let bytes { return bytes }
        guard let fileURL, let data = try? Data(contentsOf: fileURL) else { return [] }
        return Array(data)
    }
}
