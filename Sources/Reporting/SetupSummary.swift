import Scenario

/// A scenario's setup as rows to show: schema, accounts, devices and network.
///
/// A reader of a report should not need the scenario file to know what was simulated, so
/// the setup is spelled out, defaults included.
public struct SetupSummary: Hashable, Sendable {
    public var entities: [EntitySummary]
    public var accounts: [String]
    public var devices: [DeviceSummary]
    /// `(setting, value)` rows: latency, push latency, push drop, page size, environment.
    public var network: [Setting]

    public struct EntitySummary: Hashable, Sendable {
        public var name: String
        public var properties: [PropertySummary]
        /// `identity(feedLink)`, `sharable`, `sync except(lastOpened)`.
        public var notes: [String]
    }

    public struct PropertySummary: Hashable, Sendable {
        public var name: String
        /// As written: `String?`, `Folder?`, `[Note]`.
        public var type: String
        /// `default ""`, `asset`, `parent`, `inverse(folder)`, `cascade`, `not synchronized`.
        public var details: String
    }

    public struct DeviceSummary: Hashable, Sendable {
        public var name: String
        /// The account at launch, or `signed out`.
        public var account: String
        /// Its own latency, or the cloud's marked as such.
        public var latency: String
    }

    public struct Setting: Hashable, Sendable {
        public var name: String
        public var value: String
    }

    public init(_ scenario: ScenarioFile) {
        let cloud = scenario.cloud
        entities = scenario.entities.map(Self.entity)
        accounts = scenario.accounts.map(\.name.value)
        devices = scenario.devices.map { device in
            DeviceSummary(
                name: device.name.value,
                account: device.account?.value ?? "signed out",
                latency: device.latency.map { $0.value.description }
                    ?? "\(cloud.latency) (the cloud's)")
        }
        network = [
            Setting(name: "request latency (one way)", value: cloud.latency.description),
            Setting(name: "push latency", value: cloud.pushLatency.description),
            Setting(name: "push drop", value: cloud.pushDrop.description),
            Setting(name: "page size", value: "\(cloud.pageSize) records"),
            Setting(name: "environment", value: cloud.environment.rawValue),
        ]
        // A SyncLab addition, shown only when set, so other reports stay as they were.
        if cloud.missingDeletes != .succeed {
            network.append(Setting(name: "missing deletes", value: cloud.missingDeletes.rawValue))
        }
        if cloud.childSaves != .leaveParent {
            network.append(Setting(name: "child saves", value: cloud.childSaves.rawValue))
        }
    }

    private static func entity(_ entity: EntityDeclaration) -> EntitySummary {
        var properties = entity.attributes.map { attribute -> PropertySummary in
            var details: [String] = []
            if let value = attribute.defaultValue { details.append("default \(value.text)") }
            if attribute.isAsset { details.append("asset") }
            if !entity.isSynchronized(property: attribute.name.value) {
                details.append("not synchronized")
            }
            return PropertySummary(
                name: attribute.name.value,
                type: attribute.type.rawValue + (attribute.isOptional ? "?" : ""),
                details: details.joined(separator: ", "))
        }
        properties += entity.relationships.map { relationship in
            var details: [String] = []
            if relationship.isParent { details.append("parent") }
            if let inverse = relationship.inverse { details.append("inverse(\(inverse.value))") }
            details.append(relationship.deleteRule.rawValue)
            if !entity.isSynchronized(property: relationship.name.value) {
                details.append("not synchronized")
            }
            let target = relationship.target.value
            return PropertySummary(
                name: relationship.name.value,
                type: relationship.cardinality == .toOne ? "\(target)?" : "[\(target)]",
                details: details.joined(separator: ", "))
        }
        var notes: [String] = []
        if !entity.identity.isEmpty {
            notes.append("identity(" + entity.identity.map(\.value).joined(separator: ", ") + ")")
        }
        if entity.isSharable { notes.append("sharable") }
        switch entity.sync {
        case .all: break
        case .none: notes.append("sync none")
        case .only(let names):
            notes.append("sync only(" + names.map(\.value).joined(separator: ", ") + ")")
        case .except(let names):
            notes.append("sync except(" + names.map(\.value).joined(separator: ", ") + ")")
        }
        return EntitySummary(name: entity.name.value, properties: properties, notes: notes)
    }
}
