import CloudSim
import Foundation

/// A change token (Apple's `CKServerChangeToken`): opaque to the app, archivable.
public final class CKServerChangeToken: NSObject, NSSecureCoding, @unchecked Sendable {
    // `@unchecked`: immutable after init.
    public static var supportsSecureCoding: Bool { true }
    let zone: ZoneChangeToken?
    let database: DatabaseChangeToken?
    /// A database token's zones of the page it ends that a `resultsLimit` held back.
    let pending: [PendingZoneChange]

    init(zone: ZoneChangeToken) {
        self.zone = zone
        database = nil
        pending = []
    }

    init(database: DatabaseChangeToken, pending: [PendingZoneChange] = []) {
        self.database = database
        self.pending = pending
        zone = nil
    }

    public required init?(coder: NSCoder) {
        guard let kind = coder.decodeObject(of: NSString.self, forKey: "kind") as String?,
              let owner = coder.decodeObject(of: NSString.self,
                  forKey: "owner") as String? else { return nil }
        let sequence = coder.decodeInt64(forKey: "sequence")
        let epoch = coder.decodeInt64(forKey: "epoch")
        if kind == "zone", let name = coder.decodeObject(of: NSString.self,
            forKey: "name") as String? {
            zone = ZoneChangeToken(
                zone: ZoneID(owner: owner, name: name),
                    incarnation: coder.decodeInt64(forKey: "incarnation"),
                sequence: sequence, epoch: epoch)
            database = nil
            pending = []
        } else {
            let scope: DatabaseScope = switch coder.decodeInt64(forKey: "scope") {
            case 1: .sharedDatabase
            case 2: .publicDatabase
            default: .privateDatabase
            }
            database = DatabaseChangeToken(account: owner, scope: scope, sequence: sequence,
                epoch: epoch)
            zone = nil
            pending = PendingZoneChange.decode(from: coder)
        }
    }

    public func encode(with coder: NSCoder) {
        if let zone {
            coder.encode("zone" as NSString, forKey: "kind")
            coder.encode(zone.zone.owner as NSString, forKey: "owner")
            coder.encode(zone.zone.name as NSString, forKey: "name")
            coder.encode(zone.incarnation, forKey: "incarnation")
            coder.encode(zone.sequence, forKey: "sequence")
            coder.encode(zone.epoch, forKey: "epoch")
        } else if let database {
            coder.encode("database" as NSString, forKey: "kind")
            coder.encode(database.account as NSString, forKey: "owner")
            // The public database hands out no token; its number keeps the scope if one came.
            let scope: Int64 = switch database.scope {
            case .privateDatabase: 0
            case .sharedDatabase: 1
            case .publicDatabase: 2
            }
            coder.encode(scope, forKey: "scope")
            coder.encode(database.sequence, forKey: "sequence")
            coder.encode(database.epoch, forKey: "epoch")
            PendingZoneChange.encode(pending, with: coder)
        }
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CKServerChangeToken else { return false }
        return other.zone == zone && other.database == database && other.pending == pending
    }

    public override var hash: Int { Int(truncatingIfNeeded: zone?.sequence ?? database?.sequence
        ?? 0) }
}
