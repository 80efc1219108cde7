/// Blackman and Vigna's xoshiro256** generator: the one source of randomness in a simulation.
///
/// Small, fast and with published test vectors, so a run can be reproduced bit for bit in
/// another language. Reference: https://prng.di.unimi.it/xoshiro256starstar.c
public struct Xoshiro256StarStar: RandomNumberGenerator, Sendable, Hashable {
    @usableFromInline var word0: UInt64
    @usableFromInline var word1: UInt64
    @usableFromInline var word2: UInt64
    @usableFromInline var word3: UInt64

    /// Starts from an explicit state, as `s[0...3]` of the reference code.
    ///
    /// The all-zero state is the generator's one fixed point (it would output zeros forever),
    /// so it is refused.
    @inlinable
    public init(state: (UInt64, UInt64, UInt64, UInt64)) {
        precondition(
            state.0 | state.1 | state.2 | state.3 != 0,
            "xoshiro256** state must not be all zero"
        )
        (word0, word1, word2, word3) = state
    }

    /// Starts from one seed: the state is the first four outputs of `SplitMix64(seed: seed)`.
    ///
    /// This is the seeding the reference recommends; SplitMix64 outputs of consecutive states
    /// are distinct, so at most one word is zero and the state is never all zero.
    @inlinable
    public init(seed: UInt64) {
        var seeder = SplitMix64(seed: seed)
        self.init(state: (seeder.next(), seeder.next(), seeder.next(), seeder.next()))
    }

    /// The current state, `s[0...3]` of the reference code, for logging and reproduction.
    public var state: (UInt64, UInt64, UInt64, UInt64) {
        (word0, word1, word2, word3)
    }

    /// Returns the next 64-bit output, exactly as `next()` in the reference C code.
    @inlinable
    public mutating func next() -> UInt64 {
        let result = rotateLeft(word1 &* 5, by: 7) &* 9
        let shifted = word1 << 17
        word2 ^= word0
        word3 ^= word1
        word1 ^= word2
        word0 ^= word3
        word2 ^= shifted
        word3 = rotateLeft(word3, by: 45)
        return result
    }

    @inlinable @inline(__always)
    func rotateLeft(_ value: UInt64, by amount: UInt64) -> UInt64 {
        (value << amount) | (value >> (64 - amount))
    }
}
