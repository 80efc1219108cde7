import EngineKit
import Testing

@Suite struct StepRunnerTests {
    @Test func runsOneAtATimeFirstInFirstOut() {
        var runner = StepRunner<Int, Int>()
        #expect(runner.isIdle && !runner.isBusy)
        runner.enqueue(1)
        runner.enqueue(2)
        #expect(runner.queuedCount == 2 && runner.isBusy)
        let first = runner.takeNext()
        #expect(first == 1)
        runner.start(10)
        #expect(runner.running == 10)
        #expect(runner.takeNext() == nil, "nothing starts while one runs")
        runner.finish()
        #expect(runner.takeNext() == 2)
        #expect(runner.queued.isEmpty && runner.running == nil && runner.isIdle)
    }

    @Test func dropsQueuedOnesAndKeepsTheRunningOne() {
        var runner = StepRunner<String, String>()
        runner.enqueue("a")
        runner.start(runner.takeNext()!)
        runner.enqueue("b")
        runner.enqueueFirst("c")
        #expect(runner.queued == ["c", "b"])
        #expect(runner.containsOperation { $0 == "a" })
        #expect(runner.dropQueued() == ["c", "b"])
        #expect(runner.running == "a" && runner.queuedCount == 0)
    }

    @Test func queuesKindsOnceAndMovesThemToTheFront() {
        var runner = StepRunner<String, Int>()
        #expect(runner.enqueueUnlessQueued("setup"))
        #expect(runner.enqueueUnlessQueued("import"))
        #expect(!runner.enqueueUnlessQueued("setup"))
        runner.enqueue("export")
        runner.moveToFront(["export", "setup"])
        #expect(runner.queued == ["export", "setup", "import"])
        #expect(runner.isQueued("import") && !runner.isQueued("rebuild"))
    }
}
