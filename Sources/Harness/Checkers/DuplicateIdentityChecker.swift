import Device
import LocalStore

/// No two models with the same identity on a device: for every entity with an identity, a
/// device holds at most one model per identity value, except models the app itself made
/// with those values on that device (ID-5 lets the app keep such twins apart).
///
/// A twin the app did not make there came from a download that failed to match the local
/// model (ID-2), the race LIM-2 describes.
enum DuplicateIdentityChecker {
    static func check(_ world: World, ledger: SaveLedger) -> [CheckerFinding] {
        var findings: [CheckerFinding] = []
        for entity in world.schema.entities where !entity.identity.isEmpty {
            for (index, device) in world.devices.enumerated() {
                findings += check(entity, on: device, appModels: ledger.appModels[index])
            }
        }
        return findings
    }

    private static func check(
        _ entity: EntityDescription, on device: Device, appModels: Set<ModelID>
    ) -> [CheckerFinding] {
        var groups: [[LocalStore.AttributeValue]: [ModelID]] = [:]
        var order: [[LocalStore.AttributeValue]] = []
        for model in device.disk.store.models(of: entity.name) {
            let values = entity.identity.compactMap { model.values[$0] }
            guard values.count == entity.identity.count else { continue }
            if groups[values] == nil { order.append(values) }
            groups[values, default: []].append(model.id)
        }
        var findings: [CheckerFinding] = []
        for values in order {
            let models = groups[values] ?? []
            let made = models.filter(appModels.contains).count
            guard models.count > 1, models.count > made else { continue }
            let pairs = zip(entity.identity, values).map { key, value in
                "\(key)=\(ValueConversion.describe(value))"
            }
            let allowed = max(1, made)
            let literal = values.allSatisfy { LostChangeChecker.isLiteral($0) }
            findings.append(CheckerFinding(.duplicateIdentity,
                "\(device.name) holds \(models.count) \(entity.name) models with "
                    + pairs.joined(separator: " ") + " (the app made \(made) of them there)",
                expectations: literal ? ["expect \(device.name): count \(entity.name) where "
                    + pairs.joined(separator: " ") + " = \(allowed)"] : []))
        }
        return findings
    }
}
