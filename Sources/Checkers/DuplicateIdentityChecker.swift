import LocalStore

/// No two models with the same identity on a device: for every entity with an identity, a
/// device holds at most one model per identity value, unless the app somewhere gave a
/// model an identity that device already held (a twin on purpose, which ID-5 keeps apart,
/// so every device ends up with both).
///
/// Other twins come from a download that failed to match the local model (ID-2), the race
/// LIM-2 describes.
package enum DuplicateIdentityChecker {
    package static func check(_ world: WorldSnapshot, ledger: SaveLedger) -> [CheckerFinding] {
        var findings: [CheckerFinding] = []
        for entity in world.schema.entities where !entity.identity.isEmpty {
            for device in world.devices {
                findings += check(entity, on: device, deliberate: ledger.deliberateTwins)
            }
        }
        return findings
    }

    private static func check(
        _ entity: EntityDescription, on device: WorldSnapshot.DeviceState, deliberate: Set<String>
    ) -> [CheckerFinding] {
        var groups: [[LocalStore.AttributeValue]: [ModelID]] = [:]
        var order: [[LocalStore.AttributeValue]] = []
        for model in device.store.models(of: entity.name) {
            let values = entity.identity.compactMap { model.values[$0] }
            guard values.count == entity.identity.count else { continue }
            if groups[values] == nil { order.append(values) }
            groups[values, default: []].append(model.id)
        }
        var findings: [CheckerFinding] = []
        for values in order {
            let models = groups[values] ?? []
            let key = entity.name + values.map { "|" + ValueDescription.describe($0) }.joined()
            guard models.count > 1, !deliberate.contains(key) else { continue }
            let pairs = zip(entity.identity, values).map { key, value in
                "\(key)=\(ValueDescription.describe(value))"
            }
            let literal = values.allSatisfy { LostChangeChecker.isLiteral($0) }
            findings.append(CheckerFinding(.duplicateIdentity,
                "\(device.name) holds \(models.count) \(entity.name) models with "
                    + pairs.joined(separator: " "),
                expectations: literal ? ["expect \(device.name): count \(entity.name) where "
                    + pairs.joined(separator: " ") + " = 1"] : []))
        }
        return findings
    }
}
