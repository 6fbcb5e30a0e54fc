/// A small, fast, seedable generator (SplitMix64, Steele et al. 2014): the same sequence on every
/// platform, for everything Sift draws at random (evaluation samples, training, benchmarks).
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

    /// Uniform in [0, 1), 53 random bits.
    package mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in 0..<n (modulo draw; n ≥ 1, smaller n count as 1).
    package mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
}
