import Kernel
import Testing

// Expected results come from this independent Python reproduction of the documented
// workload (with `splitmix`, `Xo`, `fnv` and `stream` as in GeneratorTests.swift and
// RandomStreamsTests.swift); heapq orders the tuples by (time, sequence):
//
//   import heapq
//   def pingpong(A, E, seed):
//       delays = stream(seed, "pingpong/delay"); targets = stream(seed, "pingpong/target")
//       q = []; seq = 0
//       for i in range(A):
//           heapq.heappush(q, (delays.int_in(1, 1000), seq, i)); seq += 1
//       c = 0xcbf29ce484222325; n = 0; t = 0
//       while n < E:
//           t, _, r = heapq.heappop(q); n += 1
//           c = ((c ^ (t & M)) * 0x100000001b3) & M; c = ((c ^ r) * 0x100000001b3) & M
//           if n == E: break
//           s = targets.below(A); d = delays.int_in(1, 1000)
//           heapq.heappush(q, (t + d, seq, s)); seq += 1
//       return n, t, c
//
// pingpong(1000, 10_000_000, 1) == (10000000, 5004250, 5213001836219707004) too: the
// default benchmark run (too slow for a debug-build test, checked by hand in release).

@Suite("PingPongBenchmark")
struct PingPongBenchmarkTests {
    @Test(
        "the workload matches the Python reproduction",
        arguments: [
            (3, 50, 0, 8_047, 13_581_620_791_043_399_545),
            (10, 1_000, 42, 49_993, 4_989_369_157_018_246_840),
            (1_000, 100_000, 7, 50_284, 1_454_357_947_617_326_516),
        ] as [(Int, Int, UInt64, Int64, UInt64)]
    )
    func matchesReference(
        actors: Int, deliveries: Int, seed: UInt64, finalTime: Int64, checksum: UInt64
    ) {
        let result = PingPongBenchmark.run(actors: actors, deliveries: deliveries, seed: seed)
        #expect(result.deliveries == deliveries)
        #expect(result.finalTime == .microseconds(finalTime))
        #expect(result.checksum == checksum)
    }

    @Test("two runs with the same seed agree; another seed differs")
    func deterministic() {
        let first = PingPongBenchmark.run(actors: 50, deliveries: 5_000, seed: 9)
        #expect(first == PingPongBenchmark.run(actors: 50, deliveries: 5_000, seed: 9))
        #expect(first != PingPongBenchmark.run(actors: 50, deliveries: 5_000, seed: 10))
        #expect(first.description.hasPrefix("pingpong actors=50 deliveries=5000 seed=9 "))
    }

    @Test("zero deliveries is an empty run")
    func zeroDeliveries() {
        let result = PingPongBenchmark.run(actors: 4, deliveries: 0, seed: 1)
        #expect(result.deliveries == 0 && result.finalTime == .zero)
        #expect(result.checksum == 0xCBF2_9CE4_8422_2325)
    }
}
