/// BM25F parameters: saturation `k1`, and per field a weight and a length normalisation `b`.
package struct BM25Parameters: Sendable, Equatable {
    package var k1: Float
    /// Field weights, indexed by ``KeywordField/rawValue``: keywords > title > content.
    package var weights: [Float]
    /// Length normalisation per field, 0 (none) … 1 (full).
    package var b: [Float]

    package init(k1: Float = 0.9, weights: [Float] = [1.5, 2.0, 1.0], b: [Float] = [0.4, 0.4, 0.4]) {
        self.k1 = k1
        self.weights = weights
        self.b = b
    }

    package static let `default` = BM25Parameters()
}
