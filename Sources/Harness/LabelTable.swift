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

    func bind(_ label: String, device: Int, model: ModelID) {
        bindings[label] = Binding(originDevice: device, originModel: model, recordName: nil)
    }

    /// Learns the record names the origin devices' engines gave their labelled models.
    func resolveNames(devices: [Device]) {
        for label in bindings.keys.sorted() {
            guard var binding = bindings[label], binding.recordName == nil else { continue }
            let device = devices[binding.originDevice]
            if let name = device.disk.syncData.recordNames[binding.originModel] {
                binding.recordName = name
                bindings[label] = binding
            }
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
        if let name = binding.recordName,
           let id = device.disk.syncData.models[name],
           device.disk.store.model(id) != nil {
            return id
        }
        if binding.originDevice == index, device.disk.store.model(binding.originModel) != nil {
            if let name = binding.recordName, let bound = device.disk.syncData.recordNames[binding.originModel],
               bound != name {
                return nil
            }
            return binding.originModel
        }
        return nil
    }
}
