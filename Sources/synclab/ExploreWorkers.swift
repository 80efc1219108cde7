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
    /// stay nil).
    func run(
        jobs: Int,
        context makeContext: @escaping @Sendable () -> Context,
        work: @escaping @Sendable (inout Context, Int) -> Result,
        stop: @escaping @Sendable (Result) -> Bool = { _ in false },
        progress: (Int) -> Void
    ) -> [Result?] {
        guard jobs > 1 && results.count > 1 else {
            var context = makeContext()
            for index in results.indices {
                let result = work(&context, index)
                results[index] = result
                progress(index + 1)
                if stop(result) { break }
            }
            return results
        }
        running = jobs
        for _ in 0..<jobs {
            let thread = Thread { [self] in
                self.work(makeContext: makeContext, work: work, stop: stop)
            }
            thread.stackSize = 16 << 20
            thread.start()
        }
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

    private func work(
        makeContext: @Sendable () -> Context,
        work: @Sendable (inout Context, Int) -> Result,
        stop: @Sendable (Result) -> Bool
    ) {
        var context = makeContext()
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
            // Signalled only to stop: the calling thread reads progress every 0.1 s anyway,
            // and woken for each result (a thousand times a second) it took turns on the
            // cores the workers run on.
            if stop(result) {
                stopped = true
                condition.signal()
            }
            condition.unlock()
        }
        condition.lock()
        running -= 1
        condition.signal()
        condition.unlock()
    }
}
