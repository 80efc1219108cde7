import Kernel

/// Which of an account's databases a request addresses ([CKDatabase]); the public
/// database is one per container, the same for every account (CloudService+PublicDatabase).
public enum DatabaseScope: String, Hashable, Sendable, Comparable {
    case privateDatabase = "private"
    case sharedDatabase = "shared"
    case publicDatabase = "public"

    public static func < (lhs: DatabaseScope, rhs: DatabaseScope) -> Bool {
        lhs.rank < rhs.rank
    }

    /// The order of the raw values ("private" < "public" < "shared") without comparing the
    /// strings: the sorted maps keyed by scope compare on every lookup.
    private var rank: Int {
        switch self {
        case .privateDatabase: 0
        case .publicDatabase: 1
        case .sharedDatabase: 2
        }
    }
}

/// A record zone, named within the database of the account that owns it.
public struct ZoneID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The account that owns the zone (the simulator's stand-in for `ownerName`).
    public var owner: String
    public var name: String

    public init(owner: String, name: String) {
        self.owner = owner
        self.name = name
    }

    public static func < (lhs: ZoneID, rhs: ZoneID) -> Bool {
        (lhs.owner, lhs.name) < (rhs.owner, rhs.name)
    }

    /// The zone's name by the record-name hash (`RecordNameHash`, consistent with `String`'s
    /// `==`, so with the synthesized `==`), one word that `Hasher` takes once (`TableHash`
    /// for a table): the cloud finds a zone in its tables (zone states, feeds, shared views)
    /// about once a request, and `Hasher` over both strings would be most of each find. The
    /// owner is left out: an account's zones have different names, and the zones of one name
    /// are those of the few accounts that share, so few IDs meet in a bucket, and hashing it
    /// too was half of each find. The tables only answer lookups: the buckets' order never
    /// shows.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(word)
    }

    /// What `Dictionary` and `Set` file the zone under: the same word, mixed by `TableHash`
    /// instead of `Hasher`.
    public func _rawHashValue(seed: Int) -> Int {
        TableHash.mix(UInt64(bitPattern: Int64(word)), seed: seed)
    }

    /// The name's hash, what the zone is filed under (see `hash(into:)`).
    private var word: Int { RecordNameHash.hash(name) }

    /// `name:owner`, written byte by byte (an interpolation appends each piece).
    public var description: String { TextConcatenation.joined(name, UInt8(ascii: ":"), owner) }

    /// `CKRecordZone.ID.defaultZoneName`: the zone every private database has without saving
    /// it, and that has none of a custom zone's capabilities ([CKRecordZone] `default()`).
    public static let defaultZoneName = "_defaultZone"

    /// The default zone of an account's private database.
    public static func defaultZone(of owner: String) -> ZoneID {
        ZoneID(owner: owner, name: defaultZoneName)
    }

    /// Whether this is a database's default zone (no change feed, no atomicity, no sharing,
    /// absent from database changes and database subscriptions).
    public var isDefaultZone: Bool { name == Self.defaultZoneName }

    /// Why a device cannot save or delete this zone, if it cannot: the default zone always
    /// exists and is never created or deleted; a custom zone name is 1–255 ASCII characters
    /// and does not start with `_` ([CKRecordZone.ID]).
    var zoneChangeError: CloudError? {
        if isDefaultZone { return CloudMessages.defaultZoneChange }
        let valid =
            !name.isEmpty && name.utf8.count <= 255 && !name.hasPrefix("_")
            && name.unicodeScalars.allSatisfy(\.isASCII)
        return valid ? nil : CloudMessages.invalidZoneName(name)
    }
}

/// A record as CloudKit holds it: type, name, user fields and the server's system fields.
public struct CloudRecord: Hashable, Sendable {
    public var recordType: String
    public var recordName: String
    public var zone: ZoneID
    /// User fields. A key that is absent has no value (setting nil removes it).
    ///
    /// A sorted map, not a dictionary: a record has a few fields, which a sorted map holds in
    /// far fewer bytes than a `Dictionary`; its walks are in key order.
    public var fields: SortedMap<String, CloudValue>
    /// The record name of the parent reference (`CKRecord.parent`), if any.
    public var parent: String?
    /// Set by the server on every save; nil on a record never saved.
    public var changeTag: String?
    public var creationTime: SimTime?
    public var modificationTime: SimTime?
    /// The device that saved this version last.
    public var lastModifiedBy: String?
    /// `CKRecord.share`: on the root of a hierarchy share, the share record's name. Maintained
    /// by the server: a save only sets it together with the new share record it names.
    public var share: String? {
        get { sharing?.share }
        set {
            setRare(share: newValue, participants: participants, public: publicPermission,
                    creator: creatorAccount, modifier: lastModifierAccount)
        }
    }
    /// On a share record (`isShare`): its participants, owner first. Maintained by the server
    /// (changed by `.share` requests, never by saving the share record).
    public var participants: [ShareParticipant] {
        get { sharing?.participants ?? [] }
        set {
            setRare(share: share, participants: newValue, public: publicPermission,
                    creator: creatorAccount, modifier: lastModifierAccount)
        }
    }
    /// On a share record: `CKShare.publicPermission`, what anyone with the URL may join with
    /// (`none`: invited accounts only). Maintained by the server, like the participants.
    public var publicPermission: SharePermission {
        get { sharing?.publicPermission ?? .none }
        set {
            setRare(share: share, participants: participants, public: newValue,
                    creator: creatorAccount, modifier: lastModifierAccount)
        }
    }
    /// The account whose save created the record (`creatorUserRecordID`) when it is not the
    /// zone's owner; nil for the owner, or for a record no account saved.
    public var creatorAccount: String? {
        get { sharing?.creatorAccount }
        set {
            setRare(share: share, participants: participants, public: publicPermission,
                    creator: newValue, modifier: lastModifierAccount)
        }
    }
    /// The account that saved this version last (`lastModifiedUserRecordID`) when it is not
    /// the zone's owner; nil as for `creatorAccount`.
    public var lastModifierAccount: String? {
        get { sharing?.lastModifierAccount }
        set {
            setRare(share: share, participants: participants, public: publicPermission,
                    creator: creatorAccount, modifier: newValue)
        }
    }
    /// The fields most records leave empty (sharing, and accounts other than the zone
    /// owner's) in one box, nil when all are. A record is copied field by field, often: the
    /// box takes one word and one reference. Never a box of empty fields, so that equality and
    /// hashing stay those of the fields.
    private(set) var sharing: SharingBox?

    /// Stores the rare fields, in a new box unless all are empty.
    private mutating func setRare(
        share: String?, participants: [ShareParticipant], public permission: SharePermission,
        creator: String?, modifier: String?
    ) {
        let isEmpty = share == nil && participants.isEmpty && permission == .none
            && creator == nil && modifier == nil
        sharing = isEmpty ? nil : .fields(
            share: share, participants: participants, publicPermission: permission,
            creatorAccount: creator, lastModifierAccount: modifier)
    }

    /// Field keys in a stable order, for every output and every decision that walks them.
    public var sortedKeys: [String] { fields.keys.sorted() }

    /// Bytes counted towards the 1 MB record limit: user fields except assets.
    public var recordSizeBytes: Int { Self.sizeBytes(of: fields) }

    /// `recordSizeBytes` of a record with these fields: a caller holding a record in an
    /// array passes its fields alone, not a copy of the whole record.
    static func sizeBytes(of fields: SortedMap<String, CloudValue>) -> Int {
        // An integer sum, the same in any order: no sorted keys, no second lookup, on a
        // path every save takes.
        fields.reduce(0) { total, field in // tidy: ordered (an integer sum)
            total + field.key.utf8.count + field.value.recordSizeBytes
        }
    }
}

// The public initializer is declared in an extension so that the struct keeps its implicit
// memberwise initializer (every property, system fields too, `sharing` last): how a zone's
// record table puts a stored record together again in one initialization. An initializer
// written in the struct, assigning each property, builds the record in a temporary and
// copies it out (every reference retained, then released), on every record read from a zone
// and every record made through the public initializer.
extension CloudRecord {
    public init(
        recordType: String,
        recordName: String,
        zone: ZoneID,
        fields: SortedMap<String, CloudValue> = SortedMap(),
        parent: String? = nil,
        changeTag: String? = nil
    ) {
        self.init(
            recordType: recordType, recordName: recordName, zone: zone, fields: fields,
            parent: parent, changeTag: changeTag, creationTime: nil, modificationTime: nil,
            lastModifiedBy: nil, sharing: nil)
    }
}

extension CloudRecord {
    /// The rare fields of a record that has any, behind one reference (`indirect`): set
    /// rarely (sharing changes, another account's saves), copied with every copy of the record.
    enum SharingBox: Hashable, Sendable {
        indirect case fields(
            share: String?, participants: [ShareParticipant], publicPermission: SharePermission,
            creatorAccount: String?, lastModifierAccount: String?)

        var share: String? {
            switch self { case .fields(let share, _, _, _, _): share }
        }

        var participants: [ShareParticipant] {
            switch self { case .fields(_, let participants, _, _, _): participants }
        }

        var publicPermission: SharePermission {
            switch self { case .fields(_, _, let permission, _, _): permission }
        }

        var creatorAccount: String? {
            switch self { case .fields(_, _, _, let account, _): account }
        }

        var lastModifierAccount: String? {
            switch self { case .fields(_, _, _, _, let account): account }
        }
    }
}

/// A deletion as a zone change feed reports it: the record's name and type only.
public struct RecordDeletion: Hashable, Sendable {
    public var recordName: String
    public var recordType: String

    public init(recordName: String, recordType: String) {
        self.recordName = recordName
        self.recordType = recordType
    }
}
