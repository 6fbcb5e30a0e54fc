import Foundation
import Sift

/// An experiment of `sift-train eval --term-weighting P`: the model's vector of a text as the sum
/// of its terms' vectors, each term weighted by idf^P over the collection being ranked (P = 0:
/// every term alike). Bigrams are left out in both cases, so P = 0 is the baseline to compare with.
struct TermWeightedEmbedder: Embedder {
    let base: HashedNGramEmbedder
    let idf: [String: Float]
    let unseenIDF: Float
    let power: Float

    var dimension: Int { base.dimension }
    var fingerprint: String { base.fingerprint + "+idf^\(power)" }

    /// Document frequencies over `documents`, as the featurizer splits them into terms.
    init(base: HashedNGramEmbedder, documents: [String], power: Float) {
        var df: [String: Int] = [:]
        for text in documents { for t in Set(base.featurizer.terms(of: text)) { df[t, default: 0] += 1 } }
        let n = Float(documents.count)
        self.base = base
        self.idf = df.mapValues { Foundation.log(1 + (n - Float($0) + 0.5) / (Float($0) + 0.5)) }
        self.unseenIDF = Foundation.log(1 + (n + 0.5) / 0.5)
        self.power = power
    }

    /// Weights from a general word list (`words.tsv`: word<TAB>zipf) instead of the collection:
    /// idf ≈ ln 10 × (8 − zipf), a word not in the list as zipf 0.
    init(base: HashedNGramEmbedder, zipf: [String: Float], power: Float) {
        self.base = base
        self.idf = zipf.mapValues { Float(M_LN10) * max(0.5, 8 - $0) }
        self.unseenIDF = Float(M_LN10) * 8
        self.power = power
    }

    func embed(_ text: String, into output: UnsafeMutableBufferPointer<Float>) {
        output.update(repeating: 0)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: dimension) { term in
            for t in base.featurizer.terms(of: text) {
                base.accumulate(t, into: term)
                let w = pow(idf[t] ?? unseenIDF, power)
                for j in 0..<dimension { output[j] += w * term[j] }
            }
        }
        var sum: Float = 0
        for x in output { sum += x * x }
        if sum > 0 { for j in 0..<dimension { output[j] /= sum.squareRoot() } }
    }
}
