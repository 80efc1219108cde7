import Synchronization
import SyncLabEngineKit
import Testing

/// The executor user engines' async code runs on: everything stays on it, in a fixed order,
/// and what would leave it is refused with a message, never a hang.
@Suite struct KernelExecutorTests {
    actor Counter {
        var log: [String] = []
        func note(_ text: String, on executor: KernelExecutor) -> Bool {
            log.append(text)
            return executor.isCurrent
        }
    }

    /// An actor, `async let` and a task group, all awaited from a task on the executor.
    static func structured(_ executor: KernelExecutor) -> KernelExecutor.Outcome<[String]> {
        executor.run {
            let counter = Counter()
            var onKernel = [await counter.note("actor", on: executor)]
            async let first = counter.note("async let", on: executor)
            onKernel.append(await first)
            await withTaskGroup(of: Bool.self) { group in
                for index in 0..<4 { group.addTask { await counter.note("child \(index)", on: executor) } }
                for await result in group { onKernel.append(result) }
            }
            return await counter.log + onKernel.map { $0 ? "kernel" : "elsewhere" }
        }
    }

    @Test func actorsAndChildTasksRunOnTheKernelInAFixedOrder() throws {
        let executor = KernelExecutor()
        guard case .finished(let log) = Self.structured(executor) else {
            Issue.record("the structured body did not finish on the executor")
            return
        }
        #expect(!log.contains("elsewhere"), "\(log)")
        #expect(log.filter { $0 == "kernel" }.count == 6)
        #expect(executor.jobsRun > 6)
        // Another executor, another run: the same order of every job.
        for _ in 0..<20 {
            guard case .finished(let again) = Self.structured(KernelExecutor()) else {
                Issue.record("a repeated run did not finish")
                return
            }
            #expect(again == log)
        }
        #expect(!executor.isCurrent)
    }

    @Test func anUnstructuredTaskThatIsAwaitedIsAnEscape() {
        let executor = KernelExecutor()
        let outcome = executor.run { await Task { 1 }.value }
        guard case .escaped(let message) = outcome else {
            Issue.record("expected an escape, got \(outcome)")
            return
        }
        #expect(message.contains("another thread") || message.contains("never resumes"), "\(message)")
    }

    @Test func aWallClockSleepIsAnEscape() {
        let executor = KernelExecutor()
        // An hour, not a millisecond: on a loaded CI machine a 1 ms sleep once came back as
        // `finished(true)` (the escape was not seen), so the test depended on the machine's
        // load. An hour's sleep cannot end while the test runs, and it is the same escape.
        let outcome = executor.run { () -> Bool in
            (try? await Task.sleep(for: .seconds(3600))) != nil
        }
        guard case .escaped = outcome else {
            Issue.record("expected an escape, got \(outcome)")
            return
        }
        // Nothing runs after an escape.
        guard case .escaped = executor.run({ 1 }) else {
            Issue.record("the executor ran after an escape")
            return
        }
    }

    @Test func aContinuationNobodyResumesIsReportedNotAHang() {
        let executor = KernelExecutor()
        let outcome = executor.run {
            await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
            return 1
        }
        guard case .escaped(let message) = outcome else {
            Issue.record("expected an escape, got \(outcome)")
            return
        }
        #expect(message.contains("never resumes"))
    }

    @Test func aContinuationTheKernelHoldsSuspendsAndResumesLater() {
        let executor = KernelExecutor()
        let held = Box<UnsafeContinuation<Void, Never>>()
        let finished = Box<Bool>()
        let outcome = executor.run {
            await withUnsafeContinuation { continuation in
                executor.park()
                held.set(continuation)
            }
            finished.set(true)
            return 0
        }
        guard case .suspended = outcome else {
            Issue.record("expected a suspension, got \(outcome)")
            return
        }
        #expect(finished.get() == nil)
        let continuation = held.get()!
        #expect(executor.resume(continuation) == nil)
        #expect(finished.get() == true)
    }
}

/// A value shared between a test and a task on the executor.
final class Box<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
    func get() -> Value? { value.withLock { $0 } }
}
