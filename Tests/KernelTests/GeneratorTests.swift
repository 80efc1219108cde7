import Kernel
import Testing

// The expected values below were checked against the reference C semantics by this
// independent Python reproduction (Python 3.11; run it to regenerate them):
//
//   M = (1 << 64) - 1
//   def splitmix(s):
//       while True:
//           s = (s + 0x9e3779b97f4a7c15) & M; z = s
//           z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
//           z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
//           yield z ^ (z >> 31)
//   def rotl(x, k): return ((x << k) | (x >> (64 - k))) & M
//   class Xo:
//       def __init__(self, seed=None, state=None):
//           g = splitmix(seed) if state is None else None
//           self.s = list(state) if state else [next(g) for _ in range(4)]
//       def next(self):
//           s = self.s; r = (rotl((s[1] * 5) & M, 7) * 9) & M; t = (s[1] << 17) & M
//           s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t
//           s[3] = rotl(s[3], 45)
//           return r
//       def below(self, n):                       # Lemire with rejection
//           p = self.next() * n
//           if (p & M) < n:
//               t = ((1 << 64) - n) % n
//               while (p & M) < t: p = self.next() * n
//           return p >> 64
//       def int_in(self, lo, hi): return lo + self.below(hi - lo + 1)
//
//   g = splitmix(1234567); [next(g) for _ in range(5)]      # SplitMix64 vector
//   x = Xo(state=[1, 2, 3, 4]); [x.next() for _ in range(6)] # xoshiro256** vector
//   x = Xo(seed=99); [x.below(10) for _ in range(8)]         # and so on, as named below

@Suite("SplitMix64 and xoshiro256**")
struct GeneratorTests {
    @Test("SplitMix64 matches the published vector for seed 1234567")
    func splitMixVector() {
        var generator = SplitMix64(seed: 1_234_567)
        let outputs = (0..<5).map { _ in generator.next() }
        #expect(outputs == [
            6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
            4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
        ])
    }

    @Test("xoshiro256** matches the published vector for state {1, 2, 3, 4}")
    func xoshiroVector() {
        var generator = Xoshiro256StarStar(state: (1, 2, 3, 4))
        let outputs = (0..<6).map { _ in generator.next() }
        #expect(outputs == [
            11_520, 0, 1_509_978_240, 1_215_971_899_390_074_240,
            1_216_172_134_540_287_360, 607_988_272_756_665_600,
        ])
    }

    @Test("seeding takes the state from the first four SplitMix64 outputs")
    func seedingUsesSplitMix() {
        var seeder = SplitMix64(seed: 1_234_567)
        let words = (seeder.next(), seeder.next(), seeder.next(), seeder.next())
        let seeded = Xoshiro256StarStar(seed: 1_234_567)
        #expect(seeded.state == words)
        #expect(seeded == Xoshiro256StarStar(state: words))

        var fromZero = Xoshiro256StarStar(seed: 0)
        #expect((0..<3).map { _ in fromZero.next() } == [
            11_091_344_671_253_066_420, 13_793_997_310_169_335_082, 1_900_383_378_846_508_768,
        ])
        var fromVectorSeed = Xoshiro256StarStar(seed: 1_234_567)
        #expect((0..<3).map { _ in fromVectorSeed.next() } == [
            3_504_822_795_582_309_479, 1_819_558_768_956_484_042, 1_250_851_346_055_027_673,
        ])
    }

    @Test("uniform(below:) follows Lemire's method, rejection included")
    func uniformBelow() {
        var small = Xoshiro256StarStar(seed: 99)
        #expect((0..<8).map { _ in small.uniform(below: 10) } == [3, 5, 3, 8, 7, 2, 2, 0])

        // With bound 2^63 + 1 about half of all raw draws are rejected: 8 draws took 16.
        var large = Xoshiro256StarStar(seed: 99)
        let bound: UInt64 = (1 << 63) + 1
        #expect((0..<8).map { _ in large.uniform(below: bound) } == [
            5_201_982_056_957_756_223, 3_488_413_601_132_251_873, 7_891_775_575_146_150_638,
            7_249_127_200_051_109_770, 540_980_347_878_876_440, 1_159_143_367_516_635_602,
            3_649_541_803_192_224_812, 4_745_153_961_893_789_348,
        ])
        var counter = Xoshiro256StarStar(seed: 99)
        for _ in 0..<16 { _ = counter.next() }
        #expect(counter == large)

        var one = Xoshiro256StarStar(seed: 3)
        #expect((0..<100).allSatisfy { _ in one.uniform(below: 1) == 0 })
    }

    @Test("uniform(below:) covers every value about equally often")
    func uniformIsEven() {
        var generator = Xoshiro256StarStar(seed: 2_024)
        var counts = [Int](repeating: 0, count: 7)
        for _ in 0..<70_000 {
            counts[Int(generator.uniform(below: 7))] += 1
        }
        // Expected 10,000 each; 5 standard deviations is about 460.
        #expect(counts.allSatisfy { abs($0 - 10_000) < 500 }, "\(counts)")
    }

    @Test("int(in:) stays in range, reaches both ends and handles the full range")
    func intInRange() {
        var generator = Xoshiro256StarStar(seed: 5)
        #expect((0..<8).map { _ in generator.int(in: -5...5) } == [-2, 1, 2, 4, 0, 3, 0, 3])

        var sweep = Xoshiro256StarStar(seed: 6)
        var seen = Set<Int64>()
        for _ in 0..<1_000 {
            let value = sweep.int(in: 1...4)
            #expect((1...4).contains(value))
            seen.insert(value)
        }
        #expect(seen == [1, 2, 3, 4])

        var full = Xoshiro256StarStar(seed: 7)
        var raw = Xoshiro256StarStar(seed: 7)
        #expect(full.int(in: Int64.min...Int64.max) == Int64(bitPattern: raw.next()))
        #expect(full.int(in: 9...9) == 9)
    }

    @Test("chance(_:in:) is one draw compared with the numerator, even for 0 and 1")
    func chanceRatio() {
        var generator = Xoshiro256StarStar(seed: 5)
        #expect((0..<8).map { _ in generator.chance(1, in: 3) } == [
            true, false, false, false, false, false, false, false,
        ])
        var never = Xoshiro256StarStar(seed: 8)
        var always = Xoshiro256StarStar(seed: 8)
        var reference = Xoshiro256StarStar(seed: 8)
        for _ in 0..<50 {
            let outcomes = (never.chance(0, in: 10), always.chance(10, in: 10))
            #expect(outcomes == (false, true))
            _ = reference.next()
        }
        #expect(never == reference && always == reference)
    }
}
