/// A small, fast, seedable random number generator (SplitMix64): reproducible sequences for the
/// benchmark, the demo database and tests. The bounded and floating-point derivations are
/// written out here rather than taken from the standard library's `random(in:using:)`, whose
/// algorithms are not specified to be stable: benchmark data must be identical on every run and
/// every toolchain.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (Lemire's multiply-shift with rejection, so it is unbiased).
    package mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let range = UInt64(bound)
        let threshold = (0 &- range) % range
        while true {
            let product = next().multipliedFullWidth(by: range)
            if product.low >= threshold { return Int(product.high) }
        }
    }

    /// A value in `range`.
    package mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + next(below: range.upperBound - range.lowerBound + 1)
    }

    /// A double in `[0, 1)` with 53 random bits.
    package mutating func nextUnitDouble() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
