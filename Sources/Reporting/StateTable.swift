import Harness
import Scenario

/// A device's models or an account's records, as one table per entity.
///
/// Columns follow the entity's declaration (attributes, then relationships), then any
/// other key in name order, so the same state always gives the same table.
public struct StateTable: Hashable, Sendable {
    /// `phone (alice)` or `cloud: alice`.
    public var title: String
    /// Anything about the owner at the end (`not running`); empty when nothing.
    public var status: [String]
    public var entities: [EntityRows]

    public struct EntityRows: Hashable, Sendable {
        public var entity: String
        /// Value columns after `label` and `record`.
        public var columns: [String]
        /// Per row: label (or ""), record name, then one cell per column ("" when absent).
        public var rows: [[String]]
    }

    /// Tables for every device, then every account, of a final state.
    public static func tables(_ state: FinalState, scenario: ScenarioFile) -> [StateTable] {
        let labels = TraceDetailText.labelTable(state.labels)
        let devices = state.devices.map { device in
            StateTable(
                title: device.name + " (" + (device.account ?? "signed out") + ")",
                status: device.status,
                entities: group(device.models, scenario: scenario, labels: labels))
        }
        let accounts = state.accounts.map { account in
            StateTable(
                title: "cloud: \(account.account)", status: [],
                entities: group(account.records, scenario: scenario, labels: labels))
        }
        return devices + accounts
    }

    private static func group(
        _ rows: [FinalState.Row], scenario: ScenarioFile, labels: [String: String]
    ) -> [EntityRows] {
        let declared = scenario.entities.map(\.name.value)
        var entityNames = declared.filter { name in rows.contains { $0.entity == name } }
        entityNames += Set(rows.map(\.entity)).subtracting(declared).sorted()
        return entityNames.map { entity in
            let members = rows.filter { $0.entity == entity }.sorted { left, right in
                let a = labels[left.name] ?? "\u{10FFFF}"
                let b = labels[right.name] ?? "\u{10FFFF}"
                return a != b ? a < b : left.name < right.name
            }
            let known = scenario.entity(named: entity)?.propertyNames ?? []
            let present = Set(members.flatMap { $0.fields.map(\.key) })
            let columns = known.filter { present.contains($0) }
                + present.subtracting(known).sorted()
            let cells = members.map { row -> [String] in
                let values = columns.map { key in row.fields.first { $0.key == key }?.value ?? "" }
                return [labels[row.name] ?? "", row.name] + values
            }
            return EntityRows(entity: entity, columns: columns, rows: cells)
        }
    }
}
