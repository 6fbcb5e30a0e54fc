import CSiftKernels

/// A Bloom filter of the feature hashes (word unigrams, word bigrams) the model was trained on.
///
/// The row of a word or bigram that training never saw belongs to other features that hash to the
/// same bucket: adding it would only add noise. With a filter, such a word is represented by its
/// character n-grams alone (typos, unseen words) and such a bigram is skipped.
///
/// Probe `i` (0 ≤ i < probes) of an FNV-1a hash `h` is bit
/// `((h × 0xC2B2AE3D27D4EB4F mod 2^64) >> (64 − log2Bits) + i × ((h >> 32) | 1)) mod 2^log2Bits`.
package struct FeatureFilter: Sendable, Equatable {
    /// log2 of the number of bits.
    package let log2Bits: Int
    /// Bits tested per hash.
    package let probes: Int
    /// The bits, little-endian within each 64-bit word.
    package private(set) var words: [UInt64]

    package init(log2Bits: Int, probes: Int) {
        precondition((6...32).contains(log2Bits) && (1...16).contains(probes), "bad filter shape")
        self.log2Bits = log2Bits
        self.probes = probes
        self.words = [UInt64](repeating: 0, count: (1 << log2Bits) / 64)
    }

    init(log2Bits: Int, probes: Int, words: [UInt64]) {
        self.log2Bits = log2Bits
        self.probes = probes
        self.words = words
    }

    @inline(__always)
    private func positions(_ h: UInt64, _ body: (Int) -> Bool) -> Bool {
        let mask = (UInt64(1) << UInt64(log2Bits)) &- 1
        var p = (h &* 0xC2B2_AE3D_27D4_EB4F) >> UInt64(64 - log2Bits)
        let step = (h >> 32) | 1
        for _ in 0..<probes {
            if !body(Int(p & mask)) { return false }
            p &+= step
        }
        return true
    }

    /// Adds a feature hash.
    package mutating func insert(_ hash: UInt64) {
        let mask = (UInt64(1) << UInt64(log2Bits)) &- 1
        var p = (hash &* 0xC2B2_AE3D_27D4_EB4F) >> UInt64(64 - log2Bits)
        let step = (hash >> 32) | 1
        words.withUnsafeMutableBufferPointer { w in
            for _ in 0..<probes {
                let bit = Int(p & mask)
                w[bit >> 6] |= 1 << UInt64(bit & 63)
                p &+= step
            }
        }
    }

    /// Whether `hash` was (probably) inserted; false positives at the rate the shape gives.
    /// - Complexity: O(probes).
    @inline(__always)
    package func contains(_ hash: UInt64) -> Bool {
        // The array's elements read in place: `withUnsafeBufferPointer` on a copy of the filter
        // could retain and release its storage at every call, an atomic count every embedding
        // thread writes.
        positions(hash) { bit in words[bit >> 6] & (1 << UInt64(bit & 63)) != 0 }
    }

    /// Asks for the words `contains(hash)` will read, so that a look-up made a little later does
    /// not wait on memory: the filter (2 MiB in the shipped model) is far larger than the caches
    /// the embedding table leaves it, and each probe is otherwise a miss.
    @inline(__always)
    func prefetch(_ hash: UInt64) {
        words.withUnsafeBufferPointer { w in
            _ = positions(hash) { bit in
                sift_prefetch(w.baseAddress! + (bit >> 6))
                return true
            }
        }
    }

    /// Share of bits set (the false-positive rate is about this to the power `probes`).
    package var fillRatio: Double {
        Double(words.reduce(0) { $0 + $1.nonzeroBitCount }) / Double(1 << log2Bits)
    }
}
