import Sift

/// The model architecture with small random weights (2^12 buckets × 64, int8 rows): real
/// features and real rows, fast to build, no model file.
func randomModel(seed: UInt64 = 9, dimension: Int = 64) -> HashedNGramEmbedder {
    var rng = SeededGenerator(seed: seed)
    let featurizer = NGramFeaturizer(bucketBits: 12)
    let weights = (0..<(featurizer.bucketCount * dimension)).map { _ in Float(rng.int(-1000..<1000)) / 1000 }
    return HashedNGramEmbedder(featurizer: featurizer, dimension: dimension, weights: weights, quantized: true, name: "random-test-model")
}
