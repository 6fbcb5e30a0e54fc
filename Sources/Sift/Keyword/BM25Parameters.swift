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
    /// A query of at least this many terms (stop words aside) is taken for a pasted paragraph,
    /// not a typed query: its k3 grows with its length, k3 · terms / ``paragraphK3Length`` (at
    /// least k3), so a word it repeats counts more nearly each time — BM25's k3 was meant for
    /// long topic statements. 0: never. Chosen on SciFact train and SciFact-long train (24 and 7:
    /// the best SciFact-long train figure, and no SciFact train query is that long),
    /// `Benchmarks/RESULTS.md`.
    /// Read at query time only.
    package var paragraphTerms: Int
    package var paragraphK3Length: Float

    package init(
        k1: Float = 0.9, weights: [Float] = [1.5, 2.0, 1.0], b: [Float] = [0.4, 0.4, 0.4], k3: Float = BM25Parameters.defaultK3,
        paragraphTerms: Int = 24, paragraphK3Length: Float = 7
    ) {
        self.k3 = k3
        self.paragraphTerms = paragraphTerms
        self.paragraphK3Length = paragraphK3Length
        self.k1 = k1
        self.weights = weights
        self.b = b
    }

    package static let `default` = BM25Parameters()
    package static let defaultK3: Float = 1.5

    /// The weight of a query word said `count` times in a query of `queryTerms` terms, as a
    /// multiple of its idf.
    package func queryFrequencyWeight(_ count: Int, queryTerms: Int = 0) -> Float {
        guard count > 1 else { return 1 }
        let n = Float(count)
        let k3 = effectiveK3(queryTerms: queryTerms)
        return k3.isInfinite ? n : (k3 + 1) * n / (k3 + n)
    }

    /// ``k3`` for a query of `queryTerms` terms: larger for a pasted paragraph (``paragraphTerms``).
    package func effectiveK3(queryTerms: Int) -> Float {
        guard paragraphTerms > 0, queryTerms >= paragraphTerms, paragraphK3Length > 0 else { return k3 }
        return k3 * max(1, Float(queryTerms) / paragraphK3Length)
    }

    /// Whether the stored index built with `other` is the one built with these: every
    /// parameter but the query-time ``k3``, ``paragraphTerms`` and ``paragraphK3Length``.
    package func indexesAlike(_ other: BM25Parameters) -> Bool {
        k1 == other.k1 && weights == other.weights && b == other.b
    }
}
