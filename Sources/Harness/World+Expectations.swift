import Checkers
import CloudSim
import Device
import Kernel
import LocalStore
import Scenario
import SyncContract

extension World {
    /// Checks an expectation now; returns what was found when it does not hold, else nil.
    func check(_ kind: ExpectationKind) -> (passed: Bool, found: String) {
        labels.resolveNames(devices: devices)
        switch kind {
        case .values(.device(let device), let label, let values):
            return checkDeviceValues(device.value, label.value, values)
        case .values(.cloud(let account), let label, let values):
            return checkCloudValues(account.value, label.value, values)
        case .absent(let scope, let label):
            return checkAbsent(scope, label.value)
        case .count(let scope, let entity, let filter, let comparison, let count):
            let actual = countModels(scope, entity.value, filter)
            return (comparison.holds(actual, count.value), "\(actual)")
        case .recordName(let account, let label, let name):
            guard let actual = labels.recordName(of: label.value) else {
                return (false, "\(label.value) has no record name")
            }
            guard appRecord(named: actual, of: account.value) != nil else {
                return (false, "no record \(actual) in \(account.value)'s zone")
            }
            return (actual == name.value, "named \"\(actual)\"")
        case .state(let device, let state, let argument):
            guard let index = deviceIndex[device.value] else { return (false, "no device") }
            let actual = engineState(of: index)
            let wanted = EngineState(state.value, argument?.value)
            return (wanted.isMet(by: actual), actual.description)
        case .downloadedOnce(let device, let expected):
            guard let index = deviceIndex[device.value] else { return (false, "no device") }
            let actual = hasDownloadedOnce(index)
            return (actual == expected, actual ? "downloaded-once" : "not downloaded-once")
        case .refused(let device, let error):
            guard let index = deviceIndex[device.value] else { return (false, "no device") }
            let codes = refusals[index].codes.map(\.description).sorted()
            return (codes.contains(error.value.rawValue),
                    codes.isEmpty ? "no refusal" : "refused " + codes.joined(separator: ", "))
        case .pending(let device, let count):
            guard let index = deviceIndex[device.value] else { return (false, "no device") }
            let actual = devices[index].observation.pendingCount
            return (actual == count.value, "pending \(actual)")
        case .fired(let device, let rule, let expected):
            return checkFired(device?.value, rule.value, expected)
        case .recordZone(let account, let label, let zone):
            return checkRecordZone(account.value, label.value, zone.value)
        case .rawValues(let account, let label, let values):
            return checkRawValues(account.value, label.value, values)
        case .query(let account, let type, let conditions, let comparison, let count):
            return checkQuery(
                account.value, type.value, conditions, comparison, count.value)
        case .failure(let text):
            return checkExpectedFailure(text.value)
        case .loadError(let device, let text):
            return checkLoadError(device.value, text.value)
        case .warning(let text):
            let found = fileWarnings.isEmpty ? "no warning" : fileWarnings.joined(separator: "; ")
            return (fileWarnings.contains { $0.contains(text.value) }, found)
        case .converged(let expected):
            return checkConverged(expected)
        }
    }

    /// `expect DEVICE: no LABEL` or `expect cloud ACCOUNT: no LABEL`.
    private func checkAbsent(_ scope: ExpectationScope, _ label: String) -> (Bool, String) {
        switch scope {
        case .device(let device):
            guard let index = deviceIndex[device.value] else { return (false, "no device") }
            if let id = labels.model(label, on: index, devices: devices) {
                return (false, "\(label) exists (\(describeModel(id, on: index)))")
            }
            return (true, "")
        case .cloud(let account):
            guard let name = labels.recordName(of: label) else { return (true, "") }
            if let record = appRecord(named: name, of: account.value) {
                return (false, "record \(name) exists (\(describeRecord(record)))")
            }
            return (true, "")
        }
    }

    /// Whether the rule fired on the device, or anywhere when `deviceName` is nil.
    private func checkFired(
        _ deviceName: String?, _ rule: String, _ expected: Bool
    ) -> (Bool, String) {
        let actual: Bool
        if let deviceName {
            guard let index = deviceIndex[deviceName] else { return (false, "no device") }
            actual = firedRules[index].contains(rule)
        } else {
            actual = firedRules.contains { $0.contains(rule) }
        }
        return (actual == expected, actual ? "fired" : "not fired")
    }

    /// `expect [not] converged`: the first problems the convergence checker finds, if any.
    private func checkConverged(_ expected: Bool) -> (Bool, String) {
        // Records by the label the file gave them, where it gave one.
        let names = RecordLabels(
            labels: labels.resolvedBindings().map(\.label), recordName: labels.recordName(of:))
        let problems = ConvergenceChecker.check(snapshot()) { names.label(of: $0) ?? $0 }
        let actual = problems.isEmpty
        return (actual == expected,
                actual ? "converged" : problems.prefix(3).joined(separator: "; "))
    }

    func engineState(of index: Int) -> EngineState {
        let device = devices[index]
        guard let engine = device.engine else { return .notRunning }
        if device.account == nil { return .signedOut }
        return engine.state
    }

    func hasDownloadedOnce(_ index: Int) -> Bool {
        devices[index].observation.hasDownloadedOnce
    }

    private func checkDeviceValues(
        _ deviceName: String, _ label: String, _ values: [Assignment]
    ) -> (Bool, String) {
        guard let index = deviceIndex[deviceName] else { return (false, "no device") }
        guard let id = labels.model(label, on: index, devices: devices),
              let model = devices[index].store.model(id),
              let entity = schema.entity(named: model.entity) else {
            let why = whyMissing(label, on: index)
            return (false, "no \(label)" + (why.isEmpty ? "" : " (" + why + ")"))
        }
        var mismatches: [String] = []
        for assignment in values {
            let key = assignment.key.value
            if let attribute = entity.attribute(named: key) {
                let wanted = expectedValue(assignment.value, type: attribute.type)
                let actual = model.values[key]
                if wanted != actual {
                    mismatches.append("\(key)=\(ValueConversion.describe(actual))")
                }
            } else if entity.relationship(named: key) != nil {
                let actual = model.toOne[key]
                var wanted: ModelID?
                if case .label(let target) = assignment.value.literal {
                    wanted = labels.model(target, on: index, devices: devices)
                    if wanted == nil {
                        mismatches.append("\(key): no \(target) on \(deviceName)")
                        continue
                    }
                }
                if wanted != actual {
                    let name = actual.map { labelName(of: $0, on: index) } ?? "nil"
                    mismatches.append("\(key)=\(name)")
                }
            }
        }
        return (mismatches.isEmpty,
                mismatches.isEmpty ? "" : "\(label) " + mismatches.joined(separator: " "))
    }

    private func checkCloudValues(
        _ account: String, _ label: String, _ values: [Assignment]
    ) -> (Bool, String) {
        guard let name = labels.recordName(of: label) else {
            return (false, "\(label) has no record")
        }
        guard let record = appRecord(named: name, of: account),
              let entity = codec.entity(ofRecordType: record.recordType)
                  .flatMap(schema.entity(named:)) else {
            return (false, "no record \(name) in \(account)'s zone")
        }
        var mismatches: [String] = []
        for assignment in values {
            let key = assignment.key.value
            if let attribute = entity.attribute(named: key) {
                let wanted = expectedValue(assignment.value, type: attribute.type)
                let actual = codec.value(of: key, type: attribute.type, in: record)
                if wanted != actual {
                    mismatches.append("\(key)=\(ValueConversion.describe(actual))")
                }
            } else if entity.relationship(named: key) != nil {
                let actual = codec.reference(of: key, in: record)
                var wanted: String?
                if case .label(let target) = assignment.value.literal {
                    wanted = labels.recordName(of: target)
                }
                if wanted != actual { mismatches.append("\(key)=\(actual ?? "nil")") }
            }
        }
        return (mismatches.isEmpty,
                mismatches.isEmpty ? "" : "\(label) " + mismatches.joined(separator: " "))
    }

    private func expectedValue(
        _ value: Scenario.Value, type: LocalStore.AttributeType
    ) -> LocalStore.AttributeValue? {
        if case .null = value.literal { return nil }
        return ValueConversion.attributeValue(value.literal, type: type)
    }

    private func countModels(
        _ scope: ExpectationScope, _ entityName: String, _ filter: [Assignment]
    ) -> Int {
        guard let entity = schema.entity(named: entityName) else { return 0 }
        let wanted: [(String, LocalStore.AttributeValue?)] = filter.compactMap { assignment in
            guard let attribute = entity.attribute(named: assignment.key.value) else { return nil }
            return (assignment.key.value, expectedValue(assignment.value, type: attribute.type))
        }
        switch scope {
        case .device(let device):
            guard let index = deviceIndex[device.value] else { return 0 }
            return devices[index].store.models(of: entityName).filter { model in
                wanted.allSatisfy { model.values[$0.0] == $0.1 }
            }.count
        case .cloud(let account):
            return appRecords(of: account.value).filter { record in
                guard codec.entity(ofRecordType: record.recordType) == entityName else {
                    return false
                }
                return wanted.allSatisfy { key, value in
                    guard let attribute = entity.attribute(named: key) else { return false }
                    return codec.value(of: key, type: attribute.type, in: record) == value
                }
            }.count
        }
    }

    func describeModel(_ id: ModelID, on index: Int) -> String {
        guard let model = devices[index].store.model(id) else { return "gone" }
        return model.values.keys.sorted()
            .map { "\($0)=\(ValueConversion.describe(model.values[$0]))" }
            .joined(separator: " ")
    }

    func describeRecord(_ record: CloudRecord) -> String {
        record.sortedKeys.map { key in "\(key)=\(record.fields[key].map(Self.describe) ?? "nil")" }
            .joined(separator: " ")
    }

    static func describe(_ value: CloudValue) -> String {
        switch value {
        case .string(let text):
            return text.utf8.count > 64 ? "text(\(text.utf8.count) bytes)" : "\"\(text)\""
        case .int(let number): return String(number)
        case .double(let number): return number.description
        case .date(let milliseconds):
            return "\"\(ISODate.text(millisecondsSince1970: milliseconds))\""
        case .bytes(let bytes): return "bytes(\(bytes.count))"
        case .reference(let name, _): return "ref(\(name))"
        case .asset(let bytes): return "asset(\(bytes.count))"
        case .list(let values): return "[" + values.map(describe).joined(separator: ", ") + "]"
        }
    }

    /// The label that means a model on a device, else its record name or identifier.
    func labelName(of id: ModelID, on index: Int) -> String {
        if let name = devices[index].observation.recordName(of: id) { return name }
        return id.description
    }
}
