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
        let blocked = runner.takeNext()
        #expect(blocked == nil, "nothing starts while one runs")
        runner.finish()
        let second = runner.takeNext()
        #expect(second == 2)
        #expect(runner.queued.isEmpty && runner.running == nil && runner.isIdle)
    }

    @Test func dropsQueuedOnesAndKeepsTheRunningOne() {
        var runner = StepRunner<String, String>()
        runner.enqueue("a")
        let first = runner.takeNext()
        runner.start(first ?? "")
        runner.enqueue("b")
        runner.enqueueFirst("c")
        #expect(runner.queued == ["c", "b"])
        #expect(runner.containsOperation { $0 == "a" })
        let dropped = runner.dropQueued()
        #expect(dropped == ["c", "b"])
        #expect(runner.running == "a" && runner.queuedCount == 0)
    }

    @Test func queuesKindsOnceAndMovesThemToTheFront() {
        var runner = StepRunner<String, Int>()
        let setup = runner.enqueueUnlessQueued("setup")
        let `import` = runner.enqueueUnlessQueued("import")
        let again = runner.enqueueUnlessQueued("setup")
        #expect(setup && `import` && !again)
        runner.enqueue("export")
        runner.moveToFront(["export", "setup"])
        #expect(runner.queued == ["export", "setup", "import"])
        #expect(runner.isQueued("import") && !runner.isQueued("rebuild"))
    }
}
