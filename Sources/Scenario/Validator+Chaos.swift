/// Checks of the `chaos …` statements against the file's declarations.
extension Validator {
    mutating func checkChaos() {
        let chaos = scenario.chaos
        guard chaos.isDeclared, let start = chaos.location else { return }
        if let workload = chaos.workload {
            checkWorkload(workload)
        } else {
            report(.chaosNeedsWorkload, at: start)
        }
        var kinds: [ChaosFaultKind] = []
        for fault in chaos.faults {
            let kind = fault.kind.value
            if kinds.contains(kind) {
                report(.duplicateFault(kind.rawValue), at: fault.kind.location)
            }
            kinds.append(kind)
            if let duration = fault.duration, !kind.lasts {
                report(.faultTakesNoDuration(kind.rawValue), at: duration.location)
            }
        }
        if let mix = chaos.mix, let location = mix.location {
            let total = mix.shares.reduce(Int64(0)) { $0 + $1.share.partsPerMillion }
            if total != Probability.denominator {
                report(.chaosMixTotal(Probability(partsPerMillion: total)), at: location)
            }
            for share in mix.shares where share.kind.isSharing {
                checkEngineSupportsSharing(share)
            }
        }
        if let heal = chaos.heal,
            heal.value <= .zero || heal.value > ChaosDeclarations.maximumHealBudget
        {
            report(.healBudgetOutOfRange(heal.value), at: heal.location)
        }
    }

    private mutating func checkWorkload(_ workload: ChaosWorkload) {
        if workload.operations.value > ChaosWorkload.maximumOperations {
            report(.chaosTooManyOperations(workload.operations.value),
                at: workload.operations.location)
        }
        var entities: [String] = []
        for entity in workload.entities {
            if entities.contains(entity.value) {
                report(.duplicateChaosEntry(entity.value, list: "in the workload's entities"),
                    at: entity.location)
            }
            entities.append(entity.value)
            guard let declaration = requireEntity(entity) else { continue }
            if !declaration.isSynchronized {
                report(.chaosEntityNotSynchronized(entity.value), at: entity.location)
            }
        }
        var devices: [String] = []
        for device in workload.devices {
            if devices.contains(device.value) {
                report(.duplicateChaosEntry(device.value, list: "in the workload's devices"),
                    at: device.location)
            }
            devices.append(device.value)
            guard requireDevice(device) else { continue }
            if scenario.device(named: device.value)?.account == nil {
                report(.chaosDeviceSignedOut(device.value), at: device.location)
            }
        }
        let anyEntity = workload.entities.isEmpty
            ? scenario.entities.contains(where: \.isSynchronized) : true
        let anyDevice = workload.devices.isEmpty
            ? scenario.devices.contains { $0.account != nil } : true
        if !anyEntity || !anyDevice {
            report(.chaosNothingToActOn, at: workload.location)
        }
    }
}
