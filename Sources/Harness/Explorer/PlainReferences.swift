import Scenario

/// The devices a file's ordinary timeline names, which shrinking must keep.
enum PlainReferences {
    static func devices(in timeline: [TimelineStatement]) -> [String] {
        var names: [String] = []
        func add(_ name: String?) {
            if let name, !names.contains(name) { names.append(name) }
        }
        for statement in timeline {
            switch statement.kind {
            case .waitUntilIdle(let device):
                add(device.value)
            case .deviceAction(let action):
                add(action.device.value)
            case .trigger(let trigger):
                add(trigger.device.value)
                if case .device(let action) = trigger.action { add(action.device.value) }
            case .expectation(let expectation):
                add(device(of: expectation.kind))
            case .wait, .settle, .at, .cloudAction:
                break
            }
        }
        return names
    }

    private static func device(of kind: ExpectationKind) -> String? {
        switch kind {
        case .values(.device(let device), _, _), .absent(.device(let device), _),
            .count(.device(let device), _, _, _, _):
            return device.value
        case .state(let device, _, _), .downloadedOnce(let device, _), .pending(let device, _):
            return device.value
        case .fired(let device, _, _):
            return device?.value
        default:
            return nil
        }
    }
}
