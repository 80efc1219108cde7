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
    func runTriggers(device index: Int, probe: String) {
        guard !triggers.isEmpty else { return }
        for position in triggers.indices {
            guard !triggers[position].fired,
                  triggers[position].device == index,
                  triggers[position].probe == probe else { continue }
            triggers[position].remaining -= 1
            guard triggers[position].remaining == 0 else { continue }
            triggers[position].fired = true
            let trigger = triggers[position]
            let savedLine = currentLine
            currentLine = trigger.line
            record("script", "trigger.fired", [TraceField("line", .int(Int64(trigger.line))),
                                                TraceField("probe", .string(probe)),
                                                TraceField("device", .string(devices[index].name))])
            switch trigger.action {
            case .device(let statement):
                perform(statement, waiting: false)
            case .cloud(let statement):
                perform(statement)
            }
            currentLine = savedLine
        }
    }

    /// Triggers armed but never fired, for the run's leftovers.
    var unfiredTriggers: [ArmedTrigger] {
        triggers.filter { !$0.fired }
    }
}
