/// The state every device and every account's zone ended a run in, as rows of text.
///
/// Reports show it as tables. It holds only strings, rendered by whoever owns the live
/// objects (the harness), so this type can move below Reporting unchanged and a report never
/// needs to know how a store or the cloud keeps its data.
public struct FinalState: Hashable, Sendable {
    /// One table per declared device, in declaration order.
    public var devices: [DeviceTable]
    /// One table per account, in declaration order.
    public var accounts: [AccountTable]
    /// The scenario's labels and the record names they stand for, so a report can print `n1`
    /// where the trace says `D10B152A-…`.
    public var labels: [LabelBinding]

    public init(
        devices: [DeviceTable] = [], accounts: [AccountTable] = [], labels: [LabelBinding] = []
    ) {
        self.devices = devices
        self.accounts = accounts
        self.labels = labels
    }

    /// The local models of one device.
    public struct DeviceTable: Hashable, Sendable {
        public var name: String
        /// The account signed in at the end; nil when signed out.
        public var account: String?
        /// Anything a reader should know about the device at the end (`not running`,
        /// `offline`); empty when it is running normally.
        public var status: [String]
        public var models: [Row]

        public init(name: String, account: String?, status: [String] = [], models: [Row]) {
            self.name = name
            self.account = account
            self.status = status
            self.models = models
        }
    }

    /// The records of one account's zone in the simulated cloud.
    public struct AccountTable: Hashable, Sendable {
        public var account: String
        public var records: [Row]

        public init(account: String, records: [Row]) {
            self.account = account
            self.records = records
        }
    }

    /// A model or a record: its entity (record type), its name and its values as text.
    public struct Row: Hashable, Sendable {
        /// The entity of a model, or the record type of a record.
        public var entity: String
        /// The record name (a model without a record: its local identifier).
        public var name: String
        /// Values in the order to show them; a key that is absent has no value.
        public var fields: [Field]

        public init(entity: String, name: String, fields: [Field]) {
            self.entity = entity
            self.name = name
            self.fields = fields
        }
    }

    /// One value of a row, already rendered (`"Groceries"`, `12`, `nil`, `ref(n2)`).
    public struct Field: Hashable, Sendable {
        public var key: String
        public var value: String

        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// `insert` bound `label` to the record named `recordName`.
    public struct LabelBinding: Hashable, Sendable {
        public var label: String
        public var recordName: String

        public init(label: String, recordName: String) {
            self.label = label
            self.recordName = recordName
        }
    }
}
