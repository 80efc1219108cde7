import Device
import LocalStore
import SyncContract

/// The scenario's labels: `insert` binds one to the new model's record; on any other device
/// it means the local model that holds the same record (by record name).
///
/// Kept compact, since a file of N inserts binds N labels and the table lives to the end of
/// the run: a label `prefix<number>` (the number in plain decimal, as `n0`, `n1`, … are)
/// sits in a dense run of its prefix, at its number, as three columns (origin device, origin
/// model, record name: a fraction of a dictionary's bucket a label); any other label, or a
/// number far past the end of its prefix's run, sits in a dictionary. A label lives in
/// exactly one of the two places, so every query gives what one dictionary of bindings
/// would.
final class LabelTable {
    struct Binding {
        var originDevice: Int
        var originModel: ModelID
        /// Known once the origin's engine named the record.
        var recordName: String?
    }

    /// The bindings of one prefix's labels, by number; `devices[n] < 0`: `prefix<n>` unbound.
    private struct Run {
        var devices: [Int32] = []
        var models: [UInt64] = []
        var names: [String?] = []
    }

    /// Where a dense label sits: its prefix's run and its number.
    private struct Slot: Equatable {
        var run: Int32
        var number: Int32
    }

    /// A label's number may lie this far past the end of its run and still extend the run
    /// (the gap filled with unbound slots); further, it goes to `others`.
    private static let gapAllowance = 1_024

    /// Each run's prefix, as UTF-8 bytes (a file has one or a few: matched by a scan).
    // Unchecked: a table belongs to one world on one thread, and no access to these
    // overlaps another (each query reads them and returns).
    @exclusivity(unchecked) private var prefixes: [[UInt8]] = []
    @exclusivity(unchecked) private var runs: [Run] = []
    @exclusivity(unchecked) private var others: [String: Binding] = [:]
    /// Labels whose record name is not known yet: the dense ones by slot, the others by name.
    /// (Unchecked like the runs: `resolveNames` changes each in a `removeAll` whose closure
    /// reads the runs, `others` and devices, never the list being changed.)
    @exclusivity(unchecked) private var unresolvedSlots: [Slot] = []
    @exclusivity(unchecked) private var unresolvedOthers: [String] = []

    /// Where a label ending in a plain decimal number (no leading zero, at most nine digits)
    /// would sit: the run of its prefix (nil when no run has that prefix yet) and its number;
    /// nil for any other label.
    private func place(of label: String) -> (run: Int?, number: Int)? {
        var label = label
        // Read in place (a label is usually a small string, copied to the stack).
        return label.withUTF8 { bytes -> (run: Int?, number: Int)? in
            var start = bytes.count
            while start > 0, bytes[start - 1] >= 0x30, bytes[start - 1] <= 0x39 {
                start -= 1
                if bytes.count - start > 9 { return nil }
            }
            let digits = bytes.count - start
            guard digits > 0, digits == 1 || bytes[start] != 0x30 else { return nil }
            var number = 0
            for position in start..<bytes.count {
                number = number * 10 + Int(bytes[position] - 0x30)
            }
            let prefix = UnsafeBufferPointer(rebasing: bytes[..<start])
            let run = prefixes.firstIndex { $0.elementsEqual(prefix) }
            return (run, number)
        }
    }

    /// The slot of a label bound in a dense run.
    private func boundSlot(_ label: String) -> Slot? {
        place(of: label).flatMap(boundSlot)
    }

    private func boundSlot(_ place: (run: Int?, number: Int)) -> Slot? {
        guard let run = place.run, place.number < runs[run].devices.count,
              runs[run].devices[place.number] >= 0 else { return nil }
        return Slot(run: Int32(run), number: Int32(place.number))
    }

    private func binding(at slot: Slot) -> Binding {
        let run = Int(slot.run), number = Int(slot.number)
        return Binding(originDevice: Int(runs[run].devices[number]),
                       originModel: ModelID(runs[run].models[number]),
                       recordName: runs[run].names[number])
    }

    private func binding(of label: String) -> Binding? {
        if let slot = boundSlot(label) { return binding(at: slot) }
        return others[label]
    }

    func bind(_ label: String, device: Int, model: ModelID) {
        precondition(device >= 0 && device <= Int(Int32.max), "a device index out of range")
        // Only a label bound before can be waiting already (a linear scan per insert made a
        // file of N inserts quadratic).
        let place = place(of: label)
        if let slot = place.flatMap(boundSlot) {
            store(device: device, model: model, at: slot)
            unresolvedSlots.removeAll { $0 == slot }
            unresolvedSlots.append(slot)
            return
        }
        let fresh = Binding(originDevice: device, originModel: model, recordName: nil)
        if others[label] != nil {
            others[label] = fresh
            unresolvedOthers.removeAll { $0 == label }
            unresolvedOthers.append(label)
            return
        }
        if let place, let slot = newSlot(for: label, at: place) {
            store(device: device, model: model, at: slot)
            unresolvedSlots.append(slot)
            return
        }
        others[label] = fresh
        unresolvedOthers.append(label)
    }

    /// A slot for a label bound nowhere yet: its number's in its prefix's run, extending the
    /// run (or starting it) when the number lies at most `gapAllowance` past its end; nil when
    /// the label belongs in `others`.
    private func newSlot(for label: String, at place: (run: Int?, number: Int)) -> Slot? {
        let (found, number) = place
        let run = found ?? runs.count
        let count = found.map { runs[$0].devices.count } ?? 0
        guard number < count || number - count <= Self.gapAllowance else { return nil }
        if found == nil {
            var label = label
            prefixes.append(label.withUTF8 { Array($0.dropLast(String(number).utf8.count)) })
            runs.append(Run())
        }
        if number == count {
            runs[run].devices.append(-1)
            runs[run].models.append(0)
            runs[run].names.append(nil)
        } else if number > count {
            let missing = number + 1 - count
            runs[run].devices.append(contentsOf: repeatElement(-1, count: missing))
            runs[run].models.append(contentsOf: repeatElement(0, count: missing))
            runs[run].names.append(contentsOf: repeatElement(nil, count: missing))
        }
        return Slot(run: Int32(run), number: Int32(number))
    }

    private func store(device: Int, model: ModelID, at slot: Slot) {
        let run = Int(slot.run), number = Int(slot.number)
        runs[run].devices[number] = Int32(device)
        runs[run].models[number] = model.rawValue
        runs[run].names[number] = nil
    }

    /// The largest unresolved list whose storage `resolveNames` keeps once emptied.
    static let keptListCapacity = 64

    /// Learns the record names the origin devices' engines gave their labelled models.
    func resolveNames(devices: [Device]) {
        guard !unresolvedSlots.isEmpty || !unresolvedOthers.isEmpty else { return }
        if !unresolvedSlots.isEmpty { resolveSlots(devices: devices) }
        if !unresolvedOthers.isEmpty { resolveOthers(devices: devices) }
    }

    /// `resolveNames` of the labels in runs, the list compacted in place. The observation is
    /// read once per run of labels of one device (each read builds it anew after events), and
    /// held in a constant: in an optional variable (and a closure capturing it, as
    /// `removeAll(where:)` needs), it was copied in and out for every label.
    private func resolveSlots(devices: [Device]) {
        var kept = 0
        var position = 0
        while position < unresolvedSlots.count {
            let device = originDevice(of: unresolvedSlots[position])
            let observation = devices[device].observation
            repeat {
                let slot = unresolvedSlots[position]
                position += 1
                let run = Int(slot.run), number = Int(slot.number)
                guard runs[run].names[number] == nil else { continue }
                if let name = observation.recordName(of: ModelID(runs[run].models[number])) {
                    runs[run].names[number] = name
                } else {
                    unresolvedSlots[kept] = slot
                    kept += 1
                }
            } while position < unresolvedSlots.count
                && originDevice(of: unresolvedSlots[position]) == device
        }
        while unresolvedSlots.count > kept { unresolvedSlots.removeLast() }
        // A file of N inserts waits for N names once: give the list's storage back (a small
        // list's kept: a run binding a label at a time allocated it at every bind).
        if unresolvedSlots.isEmpty && unresolvedSlots.capacity > Self.keptListCapacity {
            unresolvedSlots = []
        }
    }

    private func originDevice(of slot: Slot) -> Int {
        Int(runs[Int(slot.run)].devices[Int(slot.number)])
    }

    /// `resolveNames` of the labels outside runs.
    private func resolveOthers(devices: [Device]) {
        var observed = -1
        var observation: (any EngineObservation)?
        func recordName(device: Int, model: ModelID) -> String? {
            if observed != device {
                observed = device
                observation = devices[device].observation
            }
            return observation?.recordName(of: model)
        }
        unresolvedOthers.removeAll { label in
            guard var binding = others[label], binding.recordName == nil else { return true }
            guard let name = recordName(
                device: binding.originDevice, model: binding.originModel) else { return false }
            binding.recordName = name
            others[label] = binding
            return true
        }
        if unresolvedOthers.isEmpty && unresolvedOthers.capacity > Self.keptListCapacity {
            unresolvedOthers = []
        }
    }

    /// Every label whose record name is known, sorted by label.
    func resolvedBindings() -> [(label: String, recordName: String)] {
        var resolved: [(label: String, recordName: String)] = []
        for (run, bytes) in prefixes.enumerated() {
            let prefix = String(decoding: bytes, as: UTF8.self)
            for (number, name) in runs[run].names.enumerated() {
                guard let name else { continue }
                resolved.append((prefix + String(number), name))
            }
        }
        for (label, binding) in others { // tidy: ordered (collected, then sorted by label)
            if let name = binding.recordName { resolved.append((label, name)) }
        }
        // Labels are unique, so this order is total: the same in every process.
        resolved.sort { $0.label < $1.label }
        return resolved
    }

    func recordName(of label: String) -> String? {
        binding(of: label)?.recordName
    }

    /// The device whose `insert` bound the label; nil for an unbound label.
    func originDevice(of label: String) -> Int? {
        binding(of: label)?.originDevice
    }

    /// The label that means a model on a device, the first by label; nil when none does. A
    /// scan of every label: for messages, never a hot path.
    func label(of id: ModelID, on index: Int, devices: [Device]) -> String? {
        var labels: [String] = []
        for (run, bytes) in prefixes.enumerated() {
            let prefix = String(decoding: bytes, as: UTF8.self)
            for number in runs[run].devices.indices where runs[run].devices[number] >= 0 {
                labels.append(prefix + String(number))
            }
        }
        labels.append(contentsOf: others.keys) // tidy: ordered (sorted below)
        labels.sort()
        return labels.first { model($0, on: index, devices: devices) == id }
    }

    func isBound(_ label: String) -> Bool {
        binding(of: label) != nil
    }

    /// The model a label means on a device, if that device holds it.
    ///
    /// On the device that inserted it, the label is that model for as long as the store holds
    /// it (the contract's "bind label `n1` to it"), whatever record the engine gives it since:
    /// a new one when an identity value changes (ID-4), another after a reset or an account
    /// switch. Elsewhere, and on its own device once that model is gone, it is the model that
    /// holds the label's record.
    func model(_ label: String, on index: Int, devices: [Device]) -> ModelID? {
        guard let binding = binding(of: label) else { return nil }
        let device = devices[index]
        // Read once, and asked whether it holds a model rather than for a copy of it.
        let store = device.store
        if binding.originDevice == index {
            if store.contains(binding.originModel) { return binding.originModel }
            // Inserted by the open transaction, named again before its save (`begin` …
            // `save`: a folder and its notes in one transaction).
            if device.unsavedEntity(of: binding.originModel) != nil { return binding.originModel }
        }
        if let name = binding.recordName,
           let id = device.observation.model(forRecord: name),
           store.contains(id) {
            return id
        }
        return nil
    }
}
