/// Sebastiano Vigna's SplitMix64 generator, used only to expand one seed into many.
///
/// It is the seeding procedure the xoshiro authors recommend: consecutive outputs come from
/// distinct states through a bijective mixer, so no seed (not even zero) yields an all-zero
/// xoshiro state. Reference: https://prng.di.unimi.it/splitmix64.c
public struct SplitMix64: Sendable, Hashable {
    /// The running state; it advances by the golden-ratio increment before every output.
    public var state: UInt64

    @inlinable
    public init(seed: UInt64) {
        state = seed
    }

    /// Returns the next 64-bit output, exactly as `next()` in the reference C code.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
