import CloudSim
import Device
import Kernel
import Scenario
import SyncContract

extension Latency {
    init(_ specification: DurationSpecification) {
        switch specification {
        case .fixed(let span):
            self = .fixed(SimTime(microseconds: span.microseconds))
        case .range(let lower, let upper):
            self = .range(SimTime(microseconds: lower.microseconds),
                          SimTime(microseconds: upper.microseconds))
        }
    }
}

extension World {
    /// A request leaves the device; offline, it fails at once with `networkUnavailable`.
    /// `sent`: the engine's `.send` effect with request `id`, consumed: the event takes it,
    /// box and all, without a copy of the request.
    func send(_ sent: consuming EngineEffect, id: RequestID, from index: Int) {
        // The device named through `deviceNames` and read unretained: held for the call, it
        // was retained and released for every request.
        guard network.online[index] else {
            record(deviceNames[index], "request.failed", [
                TraceField("request", .string(id.description)),
                TraceField("kind", .string(Self.request(of: sent).kind)),
                TraceField("error", .string("networkUnavailable")),
            ])
            outstanding[index] += 1
            let answer = CloudResponse.failure(
                CloudError(.networkUnavailable, message: "the device is offline"))
            kernel.schedule(after: .zero, actor: deviceActors[index],
                            .responseArrives(
                                device: index, incarnation: incarnations[index], id, answer))
            return
        }
        let delay = network.drawLatency(for: index)
        record(deviceNames[index], "request.sent", [
            TraceField("request", .string(id.description)),
            TraceField("kind", .string(Self.request(of: sent).kind)),
            TraceField("arrives", .int(now.adding(delay).microseconds)),
        ] + requestDetails(Self.request(of: sent)))
        outstanding[index] += 1
        kernel.schedule(after: delay, actor: deviceActors[index],
                        .requestArrives(
                            device: index, incarnation: incarnations[index], sent: sent,
                            unretainedDevices[index]._withUnsafeGuaranteedRef { $0.client }))
    }

    /// The request of a `.send` effect, copied out (for the trace).
    private static func request(of sent: EngineEffect) -> CloudRequest {
        guard case .send(_, let request) = sent else { preconditionFailure("not a request") }
        return request
    }

    /// The cloud applies the request the moment it arrives, then answers after the return
    /// latency; pushes go out to the account's other devices.
    /// The answer goes to the incarnation that sent the request: one a kill ended never gets
    /// it, and the next one, whose request numbers start again, never takes it for its own.
    func requestArrives(
        _ index: Int, _ sent: consuming EngineEffect, _ client: CloudClient,
        sentBy incarnation: Int
    ) {
        // Switched on as its owner: the request is then read in the effect's box, where a
        // pattern over a borrowed effect copied it out.
        switch consume sent {
        case .send(let id, let request):
            requestArrives(index, id, request, client, sentBy: incarnation)
        default:
            preconditionFailure("a request event without a request")
        }
    }

    private func requestArrives(
        _ index: Int, _ id: RequestID, _ request: CloudRequest, _ client: CloudClient,
        sentBy incarnation: Int
    ) {
        var outcome = cloud.handle(request, from: client, now: now)
        record("cloud", "request.handled", [TraceField("device", .string(deviceNames[index])),
                                            TraceField("request", .string(id.description)),
                                            TraceField("kind", .string(request.kind))]
               + responseDetails(id, outcome.response).dropFirst())
        applyNotes(outcome.notes)
        sendPushes(outcome.pushes)
        let delay = network.drawLatency(for: index)
        outstanding[index] += 1
        if network.online[index] {
            // Moved out of the outcome, not copied: a copy retains every reference the answer
            // holds (its records, their fields), and destroying the outcome releases them all
            // again.
            var response = CloudResponse.subscriptionSaved
            swap(&response, &outcome.response)
            kernel.schedule(after: delay, actor: deviceActors[index],
                            .responseArrives(
                                device: index, incarnation: incarnation, id, consume response))
        } else {
            // The answer cannot reach an offline device: the request fails there, after the
            // cloud already applied it.
            let lost = CloudResponse.failure(
                CloudError(.networkFailure, message: "the connection was lost"))
            kernel.schedule(after: .zero, actor: deviceActors[index],
                            .responseArrives(device: index, incarnation: incarnation, id, lost))
        }
    }

    func applyNotes(_ notes: [CloudNote]) {
        for note in notes {
            // The profile names the engine's rule a neutral note shows (docs/CLOUDSIM.md).
            let rules = profile.rules(for: note)
            record("cloud", note.kind, note.details.map { TraceField($0.key, .string($0.value)) },
                   rules: rules)
            noteFired(rules, device: nil)
            // The race the cloud observed was that device's request (LIM-1's recreation):
            // `expect DEVICE: fired` holds there too.
            if !rules.isEmpty,
               let device = note.details.first(where: { $0.key == "device" })?.value,
               let index = index(ofDevice: device) {
                noteFired(rules, device: index)
            }
        }
    }

    /// Silent pushes: never guaranteed (drop), delayed, and coalesced per device.
    func sendPushes(_ names: [String]) {
        for name in names {
            guard let index = index(ofDevice: name) else { continue }
            if !network.online[index] {
                network.pushMissed[index] = true
                record("cloud", "push.missed", [TraceField("device", .string(name))])
                continue
            }
            if network.pushScheduled[index] {
                record("cloud", "push.coalesced", [TraceField("device", .string(name))])
                continue
            }
            if pushDropped(index) { continue }
            schedulePush(to: index)
        }
    }

    /// Whether `push drop` loses this push to the device (traced `push.dropped`): any push,
    /// the one kept for an offline device too when it comes back online (APNs keeps the
    /// last one; it is no more guaranteed than the others).
    func pushDropped(_ index: Int) -> Bool {
        guard network.dropsPush(to: index) else { return false }
        record("cloud", "push.dropped", [TraceField("device", .string(devices[index].name))])
        return true
    }

    func schedulePush(to index: Int) {
        let delay = network.drawPushLatency(for: index)
        network.pushScheduled[index] = true
        outstanding[index] += 1
        record("cloud", "push.sent", [TraceField("device", .string(devices[index].name)),
                                      TraceField("arrives", .int(now.adding(delay).microseconds))])
        kernel.schedule(after: delay, actor: cloudActor, .pushArrives(device: index))
    }

    func pushArrives(_ index: Int) {
        network.pushScheduled[index] = false
        guard network.online[index] else {
            network.pushMissed[index] = true
            record(deviceNames[index], "push.missed")
            return
        }
        guard unretainedDevices[index]._withUnsafeGuaranteedRef({ $0.isRunning }) else {
            record(deviceNames[index], "push.lost",
                   [TraceField("reason", .string("app not running"))])
            return
        }
        deliver(Self.pushEvent, to: index)
    }

    private func requestDetails(_ request: CloudRequest) -> [TraceField] {
        switch request {
        case .modifyRecords(_, _, let saves, let deletes, let policy, _):
            return [TraceField("saves", .list(saves.map { .string($0.record.recordName) })),
                    TraceField("deletes", .list(deletes.map { .string($0) })),
                    TraceField("policy", .string(String(describing: policy)))]
        case .fetchZoneChanges(_, _, let token, _):
            return [TraceField("token", token.map { .int($0.sequence) } ?? .null)]
        default:
            return []
        }
    }

    func responseDetails(_ id: RequestID, _ response: CloudResponse) -> [TraceField] {
        var details = [TraceField("request", .string(id.description))]
        switch response {
        case .failure(let error):
            details.append(TraceField("error", .string(error.description)))
        case .zoneChanges(let records, let deletions, let token, let moreComing):
            details.append(TraceField("records", .list(records.map { .string($0.recordName) })))
            details.append(TraceField("deletions", .list(deletions.map { .string($0.recordName) })))
            details.append(TraceField("token", .int(token.sequence)))
            details.append(TraceField("moreComing", .bool(moreComing)))
        case .recordsModified(let results):
            details.append(TraceField("results", .list(results.map(Self.describe))))
        default:
            break
        }
        return details
    }

    private static func describe(_ result: ItemResult) -> TraceValue {
        switch result {
        case .saved(let record): return .string("saved \(record.recordName)")
        case .deleted(let name): return .string("deleted \(name)")
        case .failed(let name, let error): return .string("failed \(name): \(error.code)")
        }
    }
}
