import Combine
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `breakpoint` and `breakpointOnError` end a process without a debugger with `SIGTRAP`, as
/// Apple's do. The trap would end the test process, so each case runs in a forked child and
/// the parent reads how it ended.
@Suite struct CombineBreakpointTrapTests {
    struct Boom: Error {}

    /// How a forked child running `body` ended: the signal that ended it, or nil when it
    /// returned. A child stuck on a lock another thread held at the fork ends by `SIGALRM`.
    func signalEndingChild(_ body: () -> Void) -> Int32? {
        // Warm the pipeline's generic metadata in the parent, so the child only reads caches.
        body()
        let child = fork()
        if child == 0 {
            var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
            _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
            // The Swift runtime's backtracer would catch the signal; the default action is
            // what the trap meets in a program that has none.
            signal(SIGTRAP, SIG_DFL)
            alarm(30)
            trapping = true
            body()
            _exit(0)
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? nil : signal
    }

    @Test func anOutputTheClosureAnswersTrueForRaisesSIGTRAP() {
        let ended = signalEndingChild {
            let subject = PassthroughSubject<Int, Never>()
            let kept = subject.breakpoint(receiveOutput: { $0 == 2 && trapping }).sink { _ in }
            subject.send(1)
            subject.send(2)
            kept.cancel()
        }
        #expect(ended == SIGTRAP)
    }

    @Test func aFailureRaisesSIGTRAPUnderBreakpointOnError() {
        let ended = signalEndingChild {
            let subject = PassthroughSubject<Int, Boom>()
            let kept = subject.breakpointOnError().sink(receiveCompletion: { _ in },
                                                        receiveValue: { _ in })
            subject.send(1)
            subject.send(completion: trapping ? .failure(Boom()) : .finished)
            kept.cancel()
        }
        #expect(ended == SIGTRAP)
    }

    @Test func aChildWhoseClosuresAnswerFalseEndsNormally() {
        let ended = signalEndingChild {
            let subject = PassthroughSubject<Int, Boom>()
            let kept = subject.breakpoint(receiveSubscription: { _ in false },
                                          receiveOutput: { _ in false },
                                          receiveCompletion: { _ in false })
                .breakpointOnError()
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
            subject.send(1)
            subject.send(completion: .finished)
            kept.cancel()
        }
        #expect(ended == nil)
    }
}

/// True only in a forked child: the parent's warm-up run of the same pipeline must not trap.
nonisolated(unsafe) private var trapping = false
