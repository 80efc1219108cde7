import Kernel
import Scenario

/// A `when DEVICE reaches PROBE [N]: ACTION` line, armed when the script reads it.
struct ArmedTrigger {
    var device: Int
    var probe: String
    var remaining: Int
    var action: TriggerAction
    var line: Int
    var fired = false
}

extension World {
    func arm(_ trigger: Trigger, line: Int) {
        guard let index = deviceIndex[trigger.device.value] else { return }
        triggers.append(ArmedTrigger(
            device: index,
            probe: trigger.probe.value,
            remaining: max(1, trigger.occurrence.value),
            action: trigger.action,
            line: line
        ))
    }

    /// Runs, in the order they were armed, the triggers waiting for this probe point.
    ///
    /// `writesFollow`: the engine's effects after the probe still hold disk writes or requests
    /// it made before the point (an engine that passes its probe points in line,
    /// docs/FORMAT.md "Triggers"). An app action on that disk then runs after them, returned
    /// in `deferred` for the caller to run: run at once, its save would be overwritten by
    /// those writes, and those requests would carry what the store held before it.
    func runTriggers(
        device index: Int, probe: String, writesFollow: Bool = false,
        deferred: inout [ArmedTrigger]
    ) {
        guard !triggers.isEmpty else { return }
        for position in triggers.indices {
            guard !triggers[position].fired,
                  triggers[position].device == index,
                  triggers[position].probe == probe else { continue }
            triggers[position].remaining -= 1
            guard triggers[position].remaining == 0 else { continue }
            triggers[position].fired = true
            let trigger = triggers[position]
            if writesFollow, changesDisk(trigger.action, of: index) {
                deferred.append(trigger)
            } else {
                fire(trigger, probe: probe, device: index, deferred: false)
            }
        }
    }

    /// Carries out a trigger's action (`deferred`: after the writes that followed its probe).
    func fire(_ trigger: ArmedTrigger, probe: String, device index: Int, deferred: Bool) {
        let savedLine = currentLine
        currentLine = trigger.line
        var details = [TraceField("line", .int(Int64(trigger.line))),
                       TraceField("probe", .string(probe)),
                       TraceField("device", .string(devices[index].name))]
        if deferred {
            details.append(TraceField(
                "after", .string("the writes and requests that followed the probe")))
        }
        record("script", "trigger.fired", details)
        switch trigger.action {
        case .device(let statement):
            perform(statement, waiting: false)
            if let report = afterTriggerAction,
               let target = deviceIndex[statement.device.value] {
                report(diskOwners[target])
            }
        case .cloud(let statement):
            perform(statement)
        }
        currentLine = savedLine
    }

    /// Whether an app action changes the disk of the device at `index` (its own, or the one
    /// it shares): what an engine's later writes of that disk would overwrite. A kill is not
    /// one: it drops those writes.
    private func changesDisk(_ action: TriggerAction, of index: Int) -> Bool {
        guard case .device(let statement) = action,
              let target = deviceIndex[statement.device.value],
              diskOwners[target] == diskOwners[index] else { return false }
        switch statement.action {
        case .insert, .update, .delete, .begin, .save, .rollback, .batchDelete,
             .resetSyncData, .loseStore, .rebuildStore:
            return true
        default:
            return false
        }
    }

    /// Triggers armed but never fired, for the run's leftovers.
    var unfiredTriggers: [ArmedTrigger] {
        triggers.filter { !$0.fired }
    }
}
