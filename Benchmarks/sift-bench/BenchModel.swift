import Foundation
import Sift

/// The embedding model the benchmark measures.
enum BenchModel {
    /// The loaded model and a label for the outputs, or nil and why there is none.
    static func load(_ choice: BenchOptions.ModelChoice) -> (embedder: HashedNGramEmbedder?, label: String) {
        switch choice {
        case .none:
            return (nil, "none (--no-model)")
        case .bundled:
            do {
                let model = try HashedNGramEmbedder.bundled()
                return (model, model.fingerprint)
            } catch {
                if case .notFound = error.reason { return (nil, "none: no model file (\(HashedNGramEmbedder.bundledFileName) not found)") }
                return (nil, "none: \(error)")
            }
        case .file(let path):
            do {
                let model = try HashedNGramEmbedder(contentsOf: URL(fileURLWithPath: path))
                return (model, model.fingerprint)
            } catch {
                return (nil, "none: \(error)")
            }
        case .standIn:
            let model = standIn()
            return (model, "STAND-IN \(model.fingerprint) (random weights, 2^17 buckets, 256-d, int8: speed only)")
        }
    }

    /// The shipped architecture (as `sift-train` builds it by default: 2^17 buckets, 256
    /// dimensions, char 3–5-grams, bigrams, int8 rows) with seeded random weights.
    static func standIn() -> HashedNGramEmbedder {
        let featurizer = NGramFeaturizer(bucketBits: 17)
        let dimension = 256
        var rng = BenchRandom(seed: 0x57A2_D125)
        let weights = [Float](unsafeUninitializedCapacity: featurizer.bucketCount * dimension) { buffer, count in
            for i in 0..<buffer.count { buffer[i] = rng.signedFloat() }
            count = buffer.count
        }
        return HashedNGramEmbedder(featurizer: featurizer, dimension: dimension, weights: weights, quantized: true, name: "stand-in-random")
    }
}
