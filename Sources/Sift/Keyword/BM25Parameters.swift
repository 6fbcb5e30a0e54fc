/// BM25F parameters: saturation `k1`, and per field a weight and a length normalisation `b`.
package struct BM25Parameters: Sendable, Equatable {
    package var k1: Float
    /// Field weights, indexed by ``KeywordField/rawValue``: keywords > title > content.
    package var weights: [Float]
    /// Length normalisation per field, 0 (none) … 1 (full).
    package var b: [Float]
    /// Saturation of a query word said more than once (Robertson's k3): a word said n times
    /// weighs (k3 + 1) · n / (k3 + n) times its idf — n itself as k3 → ∞ (Lucene's clause per
    /// occurrence), 1 at k3 = 0 (each word once). Read at query time only: not part of what the
    /// stored index depends on.
    package var k3: Float

    package init(
        k1: Float = 0.9, weights: [Float] = [1.5, 2.0, 1.0], b: [Float] = [0.4, 0.4, 0.4], k3: Float = BM25Parameters.defaultK3
    ) {
        self.k3 = k3
        self.k1 = k1
        self.weights = weights
        self.b = b
    }

    package static let `default` = BM25Parameters()
    package static let defaultK3: Float = 1.5

    /// The weight of a query word said `count` times, as a multiple of its idf.
    package func queryFrequencyWeight(_ count: Int) -> Float {
        guard count > 1 else { return 1 }
        let n = Float(count)
        return k3.isInfinite ? n : (k3 + 1) * n / (k3 + n)
    }

    /// Whether the stored index built with `other` is the one built with these: every
    /// parameter but the query-time ``k3``.
    package func indexesAlike(_ other: BM25Parameters) -> Bool {
        k1 == other.k1 && weights == other.weights && b == other.b
    }
}
