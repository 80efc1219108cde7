import CloudSim
import Device
import LocalStore

extension World {
    /// Every device's models and every account's records, as text tables for reports.
    func finalState() -> FinalState {
        labels.resolveNames(devices: devices)
        let deviceTables = devices.map(Self.deviceTable)
        let accountTables = cloud.accountNames.map { account -> FinalState.AccountTable in
            let rows = appRecords(of: account).map { record in
                FinalState.Row(
                    entity: record.recordType,
                    name: record.recordName,
                    fields: record.sortedKeys.map { key in
                        FinalState.Field(
                            key: key, value: record.fields[key].map(World.describe) ?? "nil")
                    }
                )
            }
            return FinalState.AccountTable(account: account, records: rows)
        }
        let bindings = labels.resolvedBindings().map {
            FinalState.LabelBinding(label: $0.label, recordName: $0.recordName)
        }
        return FinalState(devices: deviceTables, accounts: accountTables, labels: bindings)
    }
}

extension World {
    /// One device's models as a table (record names where the engine knows them), with its
    /// status; reads nothing but the device.
    static func deviceTable(of device: Device) -> FinalState.DeviceTable {
        var status: [String] = []
        if !device.isRunning { status.append("not running") }
        if !device.isOnline { status.append("offline") }
        let observation = device.observation
        let rows = device.store.models.map { model -> FinalState.Row in
            var fields = model.values.keys.sorted().map {
                FinalState.Field(key: $0, value: ValueConversion.describe(model.values[$0]))
            }
            for key in model.toOne.keys.sorted() {
                guard let target = model.toOne[key] else { continue }
                let name = observation.recordName(of: target) ?? target.description
                fields.append(FinalState.Field(key: key, value: "ref(\(name))"))
            }
            return FinalState.Row(
                entity: model.entity,
                name: observation.recordName(of: model.id) ?? model.id.description,
                fields: fields)
        }
        return FinalState.DeviceTable(
            name: device.name, account: device.account, status: status, models: rows)
    }
}
