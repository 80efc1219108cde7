import Device
import SyncContract

/// Probe points resumed in line.
///
/// A probe point normally ends an engine's event: the world runs the triggers waiting there
/// and schedules the engine's `.resume` at the same time, a kernel event of its own. When
/// nothing could come between the two, the engine may be resumed at once instead, within the
/// same delivery, and the run is the same: the world grants that per event, the device's
/// lending path does it (`Device.deliverWritingFirst(_:now:resumingInLine:)`), and the world
/// counts each such pass as the `.resume` event it stands for. Most of a sweep's events were
/// such resumes.
extension World {
    /// The most probe points an engine may pass in line during one event; the kernel's
    /// event budget must have room for that many more events.
    static let inLinePassLimit = 16

    /// How many probe points the engine of device `index` may pass in line during the event
    /// it is about to get. None unless nothing could come between a probe point and its
    /// `.resume`:
    /// - the event is the first delivery of its dispatch, from `run(until:)`, which checks no
    ///   condition between events, or from a wait whose check between the two could not end
    ///   it (`run(while:…passesInLine: true)`: had it ended there, the `.resume` would have
    ///   come after the script's next statement); not an app action's own delivery;
    /// - no trigger is armed (one could act at the probe point);
    /// - no other event is due now (it would come first), and the budget has room;
    /// - the device is online and its latency is above zero, so that nothing it sends is
    ///   answered, or fails, at this time (the engine itself sets no timer due at once
    ///   before a pass in line, and the world checks that nothing came due);
    /// - no write-counted kill waits for this device (the pass counts the `.resume`'s write,
    ///   but the disk would hold more than that write), and its livelock guard has room for
    ///   every pass (a run that fails at a pass would leave on the lent disk what the engine
    ///   did after it: the world's checks between events end a run only where it waits);
    /// - its engine lends it the disk (the path that resumes in line).
    ///
    /// The lending path itself stops before a probe point whose `.resume` an effect of the
    /// event would come after (a timer due at once, an ended waiting action).
    func probesPassInLine(for index: Int) -> Int {
        let fromLoop = dispatchMayPassInLine
        dispatchMayPassInLine = false
        guard fromLoop, allowsInLinePasses, lendsDisk[index], triggers.isEmpty,
            network.online[index],
            network.latencyStaysAboveZero[index],
            killAfterWrite.map({ $0.device != deviceNames[index] }) ?? true,
            livenessGuards[index].hasRoom(for: Self.inLinePassLimit, at: now),
            kernel.canTakeInLine(Self.inLinePassLimit)
        else { return 0 }
        return Self.inLinePassLimit
    }

    /// Carries out a probe point the engine was resumed from in line: it is traced and
    /// guarded as `pass` does it, and the `.resume` is counted as the kernel event it would
    /// have been, with the whole-state write a lending engine makes first in every event.
    /// False when the effects after it must be dropped.
    func passInLine(_ name: String, ticket: ProbeTicket = .sole, index: Int) -> Bool {
        guard inLinePasses[index] > 0, kernel.canTakeInLine(0), !endedWaitInEvent[index] else {
            fail("\(deviceNames[index]): the engine passed probe point '\(name)' in line "
                 + "where its event did not allow it (World.probesPassInLine"
                 + (endedWaitInEvent[index] ? ": after it ended a waiting action)" : ")"))
            return false
        }
        inLinePasses[index] -= 1
        probesPassedInLine += 1
        record(deviceNames[index], "probe", Self.probeDetails(name, ticket.synchronization))
        probePairs?.note(name, device: index)
        if Self.isSyncStart(name) && !livenessGuards[index].noteStart(at: now) {
            failLivelock(device: index, repeating: "synchronization (sync.start)")
            return false
        }
        kernel.takeInLine(actor: deviceActors[index])
        return !countWrite(device: index)
    }
}
