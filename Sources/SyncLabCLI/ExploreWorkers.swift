import Foundation

/// Runs independent work items on J threads and returns their results in item order.
///
/// The only place SyncLab uses threads (the tidy lint exempts this one file): a simulation
/// run is single-threaded and deterministic, and runs are independent, so a sweep spreads
/// seeds over cores. Each thread builds its own context (its own parsed scenario, so threads
/// share no reference-counted state), takes the next item from a shared counter and puts the
/// result in that item's slot; output therefore does not depend on J or on scheduling.
final class ExploreWorkers<Context, Result: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var results: [Result?]
    private var nextItem = 0
    private var finished = 0
    private var running = 0
    private var stopped = false

    init(count: Int) {
        results = Array(repeating: nil, count: count)
    }

    /// Runs `work` on every item, `jobs` at a time; `progress(done)` is called on the calling
    /// thread now and then. `stop(result)` true ends the sweep early (items not yet started
    /// stay nil). `callerContext`, when given, is the calling thread's context (one it made
    /// already), so that only the started threads make theirs.
    func run(
        jobs: Int,
        context makeContext: @escaping @Sendable () -> Context,
        callerContext: Context? = nil,
        work: @escaping @Sendable (inout Context, Int) -> Result,
        stop: @escaping @Sendable (Result) -> Bool = { _ in false },
        progress: (Int) -> Void
    ) -> [Result?] {
        // The calling thread is one of the J: it runs items too, and J - 1 threads start
        // (none for one job, or for one item). Started J threads with the calling one
        // waiting, two of them shared a core for the first few milliseconds (the scheduler
        // placed both beside the busy caller and left them there, their caches warm): about
        // 2% of a 200-seed sweep on two cores.
        let started = results.count > 1 ? max(jobs, 1) - 1 : 0
        running = started
        for _ in 0..<started {
            let thread = Thread { [self] in
                self.work(makeContext: makeContext, work: work, stop: stop, caller: false) { _ in }
            }
            thread.stackSize = 16 << 20
            thread.start()
        }
        self.work(makeContext: makeContext, made: callerContext, work: work, stop: stop,
                  caller: true, report: progress)
        condition.lock()
        while running > 0 {
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1))
            let done = finished
            condition.unlock()
            progress(done)
            condition.lock()
        }
        condition.unlock()
        return results
    }

    /// Takes items until none is left (or the sweep stopped), giving `report` the number of
    /// items finished after each of its own. The workers started for the sweep (not the
    /// `caller`'s) count themselves out of `running` when done.
    private func work(
        makeContext: () -> Context,
        made: Context? = nil,
        work: (inout Context, Int) -> Result,
        stop: (Result) -> Bool,
        caller: Bool,
        report: (Int) -> Void
    ) {
        var context = made ?? makeContext()
        while true {
            condition.lock()
            let index = nextItem
            nextItem += 1
            let over = stopped || index >= results.count
            condition.unlock()
            if over { break }
            let result = work(&context, index)
            condition.lock()
            results[index] = result
            finished += 1
            let done = finished
            // Never signalled for a result: the calling thread works, and then reads progress
            // every 0.1 s (woken for each result, a thousand times a second, it took turns on
            // the cores the workers run on).
            if stop(result) { stopped = true }
            condition.unlock()
            report(done)
        }
        guard !caller else { return }
        condition.lock()
        running -= 1
        condition.signal()
        condition.unlock()
    }
}
