/// Draws built on `next()` with an exact, documented recipe, so another tool can repeat them.
///
/// The standard library's `random(in:using:)` does not promise its algorithm across Swift
/// versions; these do, and they never use floating point.
extension Xoshiro256StarStar {
    /// Returns a value uniformly distributed in `0..<bound`, without bias.
    ///
    /// Lemire's multiply-shift method with rejection ("Fast Random Integer Generation in an
    /// Interval", 2019): take `x = next()`, form the 128-bit product `x * bound`; if its low
    /// half is below `(2^64 - bound) % bound`, draw again; the answer is the high half.
    /// Most draws use exactly one `next()`.
    ///
    /// Inlined into every caller (a draw is a few instructions, its call a good part of
    /// them); the rare check for a redraw is not.
    @inlinable @inline(__always)
    public mutating func uniform(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "uniform(below:) needs a positive bound")
        let product = next().multipliedFullWidth(by: bound)
        if product.low < bound { return redrawing(product, below: bound) }
        return product.high
    }

    /// `uniform(below:)` once its first product's low half is below `bound`: draws again
    /// while the low half is below the rejection threshold.
    @usableFromInline @inline(never)
    mutating func redrawing(
        _ first: (high: UInt64, low: UInt64), below bound: UInt64
    ) -> UInt64 {
        var product = first
        let threshold = (0 &- bound) % bound
        while product.low < threshold {
            product = next().multipliedFullWidth(by: bound)
        }
        return product.high
    }

    /// Returns a value uniformly distributed in `range`, both ends included.
    ///
    /// Equal to `range.lowerBound + uniform(below: width)` with `width` the number of values
    /// in the range; the full `Int64` range takes one raw `next()` instead.
    @inlinable
    public mutating func int(in range: ClosedRange<Int64>) -> Int64 {
        let width = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
        if width == 0 {
            return Int64(bitPattern: next())
        }
        return range.lowerBound &+ Int64(bitPattern: uniform(below: width))
    }

    /// Returns true with probability `numerator / denominator`.
    ///
    /// Probabilities are integer ratios so that no floating-point rounding can differ between
    /// machines. It always draws once, as `uniform(below: denominator) < numerator`, even for
    /// 0 or 1, so changing a probability never shifts the later draws of the stream.
    @inlinable
    public mutating func chance(_ numerator: UInt64, in denominator: UInt64) -> Bool {
        precondition(denominator > 0, "chance(_:in:) needs a positive denominator")
        precondition(numerator <= denominator, "chance(_:in:) needs numerator <= denominator")
        return uniform(below: denominator) < numerator
    }
}
