import CloudSim
import LocalStore
import SyncContract

/// `expect converged`: every device signed into an account, online and running holds exactly
/// the records of that account's zone, as models with equal values. The explorer leaves out a
/// device on which a rule exempting convergence fired (it stops synchronizing by design).
///
/// It reads a snapshot of the world; it stands apart from the engine it checks.
package enum ConvergenceChecker {
    /// The differences found, in a stable order; empty when the world has converged.
    ///
    /// `exempting` leaves out the devices the catalogue exempts (the explorer's check;
    /// `expect converged` asks of all); `describe` writes a record name in messages (the
    /// explorer adds its label).
    package static func check(
        _ world: WorldSnapshot, exempting: Bool = false, describe: (String) -> String = { $0 }
    ) -> [String] {
        // Rules under which a device stops synchronizing by design (sds: ERR-2).
        let pausing = exempting
            ? world.catalogue.exemptions(from: InvariantCheck.convergence.rawValue) : []
        var problems: [String] = []
        for device in world.devices {
            guard let account = device.account, device.isOnline, device.isRunning else {
                continue
            }
            if pausing.contains(where: device.firedRules.contains) { continue }
            var records = world.appRecords(of: account)
            for zone in world.cloud.sharedZones(of: account) {
                records += world.cloud.visibleRecords(in: zone, for: account)
            }
            // The explorer's check asks a device only what its app version synchronizes
            // (EXT-2): a key an older app leaves out differs from iCloud by design.
            let schema = exempting
                ? device.recordingView.map { $0.applied(to: world.schema) } ?? world.schema
                : world.schema
            // Shares are skipped in `differences`, not filtered out here (a copy of every
            // record).
            problems += differences(
                device, records: records, schema: schema, skipsIncomplete: exempting, world: world,
                describe: describe)
        }
        return problems
    }

    /// Whether the device cannot store the record: an attribute the entity requires (neither
    /// optional nor defaulted) has no value in it, or the device's app version does not
    /// synchronize it.
    static func lacksRequiredValue(
        _ record: CloudRecord, _ entity: EntityDescription, codec: any RecordCodec
    ) -> Bool {
        entity.attributes.contains { attribute in
            guard !attribute.isOptional, attribute.defaultValue == nil else { return false }
            return !entity.sync.includes(attribute.name)
                || codec.value(of: attribute.name, type: attribute.type, in: record) == nil
        }
    }

    /// The differences of one device from `records`, its account's records (shares among
    /// them are skipped).
    private static func differences(
        _ device: WorldSnapshot.DeviceState, records: [CloudRecord], schema: Schema,
        skipsIncomplete: Bool, world: WorldSnapshot,
        describe: (String) -> String
    ) -> [String] {
        var problems: [String] = []
        let codec = world.codec
        let observation = device.observation
        let store = device.store
        // Sized once: grown insert by insert, it was rehashed several times a device.
        var seen = Set<ModelID>(minimumCapacity: records.count)
        for record in records where record.recordType != "cloudkit.share" {
            guard let entity = codec.entity(ofRecordType: record.recordType)
                    .flatMap(schema.entity(named:)),
                entity.isSynchronized else { continue }
            if skipsIncomplete, lacksRequiredValue(record, entity, codec: codec) {
                // An older app's record without a required value: every store declines it by
                // design (outbox: OBX-22, history: HIS-21, sds: DL-4, naive: NAIVE-8).
                if let id = observation.model(forRecord: record.recordName) { seen.insert(id) }
                continue
            }
            // Values and to-one targets read apart: the whole model was copied out.
            guard let id = observation.model(forRecord: record.recordName),
                  let values = store.values(of: id) else {
                problems.append("\(device.name) lacks \(describe(record.recordName))")
                continue
            }
            seen.insert(id)
            for attribute in entity.synchronizedAttributes {
                // Where the engine's codec reads the value (sds: a field or its overflow asset).
                let cloudValue = codec.value(of: attribute.name, type: attribute.type, in: record)
                if cloudValue != values[attribute.name] {
                    problems.append("\(device.name) \(describe(record.recordName)) "
                        + "\(attribute.name)="
                        + ValueDescription.describe(values[attribute.name])
                        + " but iCloud has "
                        + ValueDescription.describe(cloudValue))
                }
            }
            guard let toOne = store.toOne(of: id) else { continue }
            for relationship in entity.synchronizedToOneRelationships {
                var cloudTarget = codec.reference(of: relationship.name, in: record)
                let localTarget = toOne[relationship.name].flatMap {
                    observation.recordName(of: $0)
                }
                if cloudTarget != localTarget, let target = cloudTarget,
                    !records.contains(where: { $0.recordName == target })
                {
                    // A reference to a record iCloud no longer holds: deleting the target of a
                    // `.none` reference leaves its ID in place ([CKReference]), and a device
                    // reading the record finds no target, as one that had it and nullified
                    // the link after the deletion. (Looked for only on a difference.)
                    cloudTarget = nil
                }
                if cloudTarget != localTarget {
                    problems.append("\(device.name) \(describe(record.recordName)) "
                        + "\(relationship.name)="
                        + "\(localTarget.map(describe) ?? "nil") but iCloud has "
                        + (cloudTarget.map(describe) ?? "nil"))
                }
            }
        }
        for id in store.modelIDs where !seen.contains(id) {
            guard let entity = store.entity(of: id).flatMap(schema.entity(named:)),
                entity.isSynchronized else { continue }
            let name = observation.recordName(of: id) ?? id.description
            problems.append("\(device.name) has \(describe(name)), which iCloud lacks")
        }
        return problems
    }
}
