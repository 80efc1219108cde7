import CKSyncEngineSim
import CloudSim
import Kernel
import SyncContract

/// The part of a hosted engine that its user-facing objects (`CKSyncEngine`,
/// `LocalDatabase`) share: the simulated engine, the executor, the effects in order, the
/// continuations the kernel holds, and the first runtime error.
final class HostCore {
    let executor = KernelExecutor()
    let author: String
    var sim: CKSyncEngineSim.CKSyncEngine!
    /// The device's conditions during the event being handled.
    var context = DeviceConditions(
        now: .zero, device: "", account: nil, accountStatus: .available, isOnline: true, isDiskFull: false)
    /// A delegate callback runs (the simulated engine waits for it).
    var inCallback = false
    /// The first runtime error; the engine does nothing more once it is set.
    var failure: String?
    /// Effects produced before the simulated engine exists (a failure at launch).
    var early: [EngineEffect] = []
    /// Tasks waiting in `fetchChanges()` / `sendChanges()` until no operation is left.
    var idleWaiters: [UnsafeContinuation<Void, Never>] = []
    /// Tasks in `sleep(for:)`, by their timer, in the order they began.
    var sleepers: [(timer: EngineTimer, continuation: UnsafeContinuation<Void, Never>)] = []
    var sleepCount = 0
    /// Tasks waiting for the answer of a `CKDatabase` request, in the order they were sent.
    var requests: [(id: RequestID, continuation: UnsafeContinuation<Void, Never>, answer: AnswerBox)] = []
    /// Request numbers of `CKDatabase` calls, apart from the simulated engine's.
    var nextRequestNumber: UInt64 = 1_000_000_000

    init(author: String) {
        self.author = author
    }

    /// Puts effects in the run's order (inside a callback: at this point of the engine's).
    ///
    /// Nothing, between the moment the executor refused an escape and the moment the run
    /// returns it (the rest of the job that escaped, on the simulation's thread): what the
    /// engine's code does then may depend on the machine (an awaited task that was already
    /// done goes on at once), so none of it reaches the run, which ends with the escape's
    /// runtime error.
    func emit(_ effects: [EngineEffect]) {
        guard !effects.isEmpty else { return }
        if failure == nil, executor.escape != nil, executor.isCurrent { return }
        append(effects)
    }

    private func append(_ effects: [EngineEffect]) {
        if let sim { sim.append(effects) } else { early.append(contentsOf: effects) }
    }

    /// Takes every effect in order.
    func takeEffects() -> [EngineEffect] {
        let taken = early + (sim?.takeEffects() ?? [])
        early = []
        return taken
    }

    /// Ends the run with a runtime error (the first one only).
    func fail(_ message: String) {
        guard failure == nil else { return }
        failure = message
        append([.runtimeError(message)])
    }

    /// False (and a runtime error) inside a delegate callback, as on Apple platforms, where
    /// the engine would generate events while it delivers one.
    func enterOperation(_ call: String) -> Bool {
        guard !inCallback else {
            fail("CKSyncEngine.\(call) was called from inside a delegate callback; call it from "
                + "the app's own code (storeDidSave), never while the engine delivers an event")
            return false
        }
        return true
    }

    /// Suspends the calling task until the simulated engine has no operation left.
    func untilIdle() async {
        await withUnsafeContinuation { continuation in
            executor.park()
            idleWaiters.append(continuation)
        }
    }

    /// Suspends the calling task for `duration` of simulated time.
    func sleep(_ duration: SimTime) async {
        await withUnsafeContinuation { continuation in
            executor.park()
            sleepCount += 1
            let timer = EngineTimer("kit.sleep.\(sleepCount)")
            sleepers.append((timer, continuation))
            emit([.setTimer(timer, after: duration)])
        }
    }

    /// Sends a request and suspends the calling task until its answer arrives.
    func request(_ request: CloudRequest) async -> CloudResponse {
        let answer = AnswerBox()
        await withUnsafeContinuation { continuation in
            executor.park()
            nextRequestNumber += 1
            let id = RequestID(nextRequestNumber)
            requests.append((id, continuation, answer))
            emit([.send(id, request)])
        }
        return answer.response ?? .failure(CloudError(.internalError, message: "no answer"))
    }

    /// Hands an answer to the task waiting for it; false when no task waits for this request.
    func answer(_ id: RequestID, _ response: CloudResponse) -> Bool {
        guard let index = requests.firstIndex(where: { $0.id == id }) else { return false }
        let waiting = requests.remove(at: index)
        waiting.answer.response = response
        if let escape = executor.resume(waiting.continuation) { fail(escape) }
        return true
    }

    /// Resumes a sleeping task whose timer fired; false when the timer is not a sleep's.
    func wake(_ timer: EngineTimer) -> Bool {
        guard let index = sleepers.firstIndex(where: { $0.timer == timer }) else { return false }
        let sleeper = sleepers.remove(at: index)
        if let escape = executor.resume(sleeper.continuation) { fail(escape) }
        return true
    }

    /// Resumes the tasks waiting for the engine to be idle, while it is (each may start more).
    func resumeIdleWaiters() {
        while failure == nil, !idleWaiters.isEmpty, !sim.isBusy {
            let waiter = idleWaiters.removeFirst()
            if let escape = executor.resume(waiter) { fail(escape) }
        }
    }

    /// Runs user code on the executor to its end; a suspension on a kernel continuation is
    /// allowed only where `mayWait` (the app's own code, not a delegate callback).
    func run<Value: Sendable>(
        _ what: String, mayWait: Bool, _ body: @escaping @Sendable () async -> Value
    ) -> Value? {
        guard failure == nil else { return nil }
        switch executor.run(body) {
        case .finished(let value):
            return value
        case .suspended:
            if !mayWait {
                fail("\(what) waited for simulated time (fetchChanges, sendChanges or sleep); a delegate "
                    + "callback must finish before the engine goes on")
            }
            return nil
        case .escaped(let message):
            fail("\(what): \(message)")
            return nil
        }
    }
}

/// Where the answer of a `CKDatabase` request waits for its task (kernel thread only).
final class AnswerBox: @unchecked Sendable {
    var response: CloudResponse?
}
