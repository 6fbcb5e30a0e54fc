import Sift

/// The library's SplitMix64, so random test sequences repeat exactly, with test helpers.
typealias SeededGenerator = SplitMix64

extension SplitMix64 {
    /// A whole number in `range`.
    mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    /// One element of a non-empty array.
    mutating func pick<T>(_ array: [T]) -> T { array[int(0..<array.count)] }
}
