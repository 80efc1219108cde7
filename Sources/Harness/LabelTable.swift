import Device
import LocalStore

/// The scenario's labels: `insert` binds one to the new model's record; on any other device
/// it means the local model that holds the same record (by record name).
final class LabelTable {
    struct Binding {
        var originDevice: Int
        var originModel: ModelID
        /// Known once the origin's engine named the record.
        var recordName: String?
    }

    private var bindings: [String: Binding] = [:]
    /// Labels whose record name is not known yet, in binding order.
    private var unresolved: [String] = []

    func bind(_ label: String, device: Int, model: ModelID) {
        // Only a label bound before can be waiting already (a linear scan per insert made a
        // file of N inserts quadratic).
        if bindings.updateValue(Binding(originDevice: device, originModel: model, recordName: nil),
                                forKey: label) != nil {
            unresolved.removeAll { $0 == label }
        }
        unresolved.append(label)
    }

    /// Learns the record names the origin devices' engines gave their labelled models.
    func resolveNames(devices: [Device]) {
        guard !unresolved.isEmpty else { return }
        unresolved.removeAll { label in
            guard var binding = bindings[label], binding.recordName == nil else { return true }
            let device = devices[binding.originDevice]
            guard let name = device.observation.recordName(of: binding.originModel) else {
                return false
            }
            binding.recordName = name
            bindings[label] = binding
            return true
        }
    }

    /// Every label whose record name is known, sorted by label.
    func resolvedBindings() -> [(label: String, recordName: String)] {
        bindings.keys.sorted().compactMap { label in bindings[label]?.recordName.map { (label, $0) } }
    }

    func recordName(of label: String) -> String? {
        bindings[label]?.recordName
    }

    func isBound(_ label: String) -> Bool {
        bindings[label] != nil
    }

    /// The model a label means on a device, if that device holds it.
    func model(_ label: String, on index: Int, devices: [Device]) -> ModelID? {
        guard let binding = bindings[label] else { return nil }
        let device = devices[index]
        let observation = device.observation
        if let name = binding.recordName,
           let id = observation.model(forRecord: name),
           device.disk.store.model(id) != nil {
            return id
        }
        if binding.originDevice == index, device.disk.store.model(binding.originModel) != nil {
            if let name = binding.recordName, let bound = observation.recordName(of: binding.originModel),
               bound != name {
                return nil
            }
            return binding.originModel
        }
        return nil
    }
}
