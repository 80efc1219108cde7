/// Splits one scenario seed into independent generators, one per named stream.
///
/// A stream depends on the seed and its own name only, so adding a device (and with it new
/// streams such as `latency/tablet`) never changes the draws another stream makes.
///
/// The derivation, exactly, so another tool can reproduce it:
/// 1. `nameHash` = FNV-1a 64 of the name's UTF-8 bytes (offset basis `0xcbf29ce484222325`,
///    prime `0x100000001b3`; for each byte: `hash = (hash ^ byte) * prime` modulo 2^64).
/// 2. `seedKey` = the first output of `SplitMix64(seed: seed)`.
/// 3. `streamSeed` = `seedKey ^ nameHash`.
/// 4. The stream is `Xoshiro256StarStar(seed: streamSeed)`: its four state words are the
///    first four outputs of `SplitMix64(seed: streamSeed)`.
public struct RandomStreams: Sendable, Hashable {
    /// The scenario seed every stream is derived from.
    public let seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
    }

    /// Returns a fresh generator for the stream `name`; the caller keeps it and draws from it.
    ///
    /// Asking twice for the same name returns two generators in the same starting state.
    public func stream(_ name: String) -> Xoshiro256StarStar {
        Xoshiro256StarStar(seed: streamSeed(name))
    }

    /// The seed of stream `name` (step 3 of the derivation), exposed for cross-checking.
    public func streamSeed(_ name: String) -> UInt64 {
        var seeder = SplitMix64(seed: seed)
        return seeder.next() ^ Self.fnv1a64(name)
    }

    /// FNV-1a 64 of the UTF-8 bytes of `text`.
    public static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
