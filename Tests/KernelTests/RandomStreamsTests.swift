import Kernel
import Testing

// Expected values from the Python reproduction in GeneratorTests.swift, plus:
//   def fnv(b):
//       h = 0xcbf29ce484222325
//       for c in b: h = ((h ^ c) * 0x100000001b3) & M
//       return h
//   def stream(seed, name): return Xo(seed=next(splitmix(seed)) ^ fnv(name.encode()))

@Suite("RandomStreams")
struct RandomStreamsTests {
    @Test("FNV-1a 64 matches its published vectors")
    func fnvVectors() {
        #expect(RandomStreams.fnv1a64("") == 0xCBF2_9CE4_8422_2325)
        #expect(RandomStreams.fnv1a64("a") == 0xAF63_DC4C_8601_EC8C)
        #expect(RandomStreams.fnv1a64("latency/phone") == 0x7518_0B7F_C88E_8102)
    }

    @Test("a stream follows the documented derivation")
    func documentedDerivation() {
        let streams = RandomStreams(seed: 42)
        #expect(streams.streamSeed("latency/phone") == 14_469_847_186_061_782_935)
        var phone = streams.stream("latency/phone")
        #expect((0..<3).map { _ in phone.next() } == [
            5_207_848_650_324_780_041, 13_670_887_122_842_755_512, 4_892_200_015_704_793_945,
        ])
        var laptop = streams.stream("push/laptop")
        #expect((0..<3).map { _ in laptop.next() } == [
            1_971_947_699_895_407_404, 14_314_301_901_739_043_395, 10_684_537_474_347_400_905,
        ])
        var accented = RandomStreams(seed: 0).stream("é/ü")
        #expect((0..<2).map { _ in accented.next() } == [
            11_959_700_851_212_895_284, 13_524_809_327_175_895_197,
        ])
    }

    @Test("a stream depends on its name and the seed only")
    func independence() {
        let streams = RandomStreams(seed: 7)
        var before = streams.stream("latency/phone")
        var others = [streams.stream("latency/laptop"), streams.stream("latency/tablet")]
        _ = others[0].next()
        _ = others[1].next()
        var after = RandomStreams(seed: 7).stream("latency/phone")
        #expect((0..<10).map { _ in before.next() } == (0..<10).map { _ in after.next() })

        #expect(streams.stream("a") != streams.stream("b"))
        #expect(RandomStreams(seed: 1).stream("a") != RandomStreams(seed: 2).stream("a"))
    }
}
