import Foundation
import Sift

/// The sparse design of the least-squares fit, factored in two levels so that a word's features
/// are stored once however many texts use it:
///   student(text) = a_text · ( Σ_{terms t} V[t] + bigramWeight · Σ_{bigrams b} E[b] ),
///   V[t] = Σ_{features f of t} w_f · E[bucket_f],
/// with a_text = sqrt(example weight) / (number of terms)^p: p = 1 (the default) is mean pooling,
/// so that a sentence and a word are fitted at the scale of their (unit-length) teacher vectors;
/// p < 1 lets a longer text's sum of rows be longer (`--pooling-power`).
struct TrainingSet: Sendable {
    let featurizer: NGramFeaturizer
    private(set) var termFeatureOffsets: [Int32] = [0]
    private(set) var termFeatureBuckets: [Int32] = []
    private(set) var termFeatureWeights: [Float] = []
    private(set) var exampleTermOffsets: [Int32] = [0]
    private(set) var exampleTerms: [Int32] = []
    private(set) var exampleBigramOffsets: [Int32] = [0]
    private(set) var exampleBigrams: [Int32] = []
    /// sqrt(weight) / terms.
    private(set) var exampleScale: [Float] = []
    /// sqrt(weight), multiplying the target row.
    private(set) var exampleTargetScale: [Float] = []
    /// Row of the target matrix.
    private(set) var exampleTarget: [Int32] = []
    private var termIDs: [String: Int32] = [:]

    /// The power p of a_text's term count (1: mean pooling).
    let poolingPower: Float

    init(featurizer: NGramFeaturizer, poolingPower: Float = 1) {
        self.featurizer = featurizer
        self.poolingPower = poolingPower
    }

    /// terms^power, the divisor of a text's summed rows in the fit (exactly `terms` at power 1).
    static func poolingDivisor(terms: Int, power: Float) -> Float {
        power == 1 ? Float(terms) : pow(Float(terms), power)
    }

    var termCount: Int { termFeatureOffsets.count - 1 }
    var exampleCount: Int { exampleScale.count }
    var bigramWeight: Float { featurizer.usesBigrams ? featurizer.bigramWeight : 0 }

    /// Adds `text` fitted to target row `target` with weight `weight`; false if it has no terms.
    @discardableResult
    mutating func add(_ text: String, target: Int, weight: Float) -> Bool {
        let design = termsAndBigrams(of: text) { true }
        return appendExample(terms: design.terms, bigrams: design.bigrams, target: target, weight: weight)
    }

    /// Adds a copy of `text` with each of its terms kept with probability `keep` (bigrams only
    /// between terms adjacent in `text` that are both kept), fitted to the whole text's target:
    /// a part of a text pulled towards what the whole says, as a query is to its document.
    /// False (nothing added) when the text has fewer than `minimumTerms` terms, or none was
    /// dropped, or none kept.
    @discardableResult
    mutating func addDropped(
        _ text: String, target: Int, weight: Float, keep: Double, minimumTerms: Int, random: inout SplitMix64
    ) -> Bool {
        let design = termsAndBigrams(of: text) { random.unit() < keep }
        guard design.terms.count < design.total, design.total >= minimumTerms else { return false }
        return appendExample(terms: design.terms, bigrams: design.bigrams, target: target, weight: weight)
    }

    /// The term ids of the terms of `text` that `kept()` keeps (asked once a term, in order), the
    /// buckets of the bigrams between kept terms adjacent in `text`, and how many terms `text` has.
    private mutating func termsAndBigrams(
        of text: String, kept: () -> Bool
    ) -> (terms: [Int32], bigrams: [Int32], total: Int) {
        var terms: [Int32] = []
        var bigrams: [Int32] = []
        var previous: UInt64? = nil
        var total = 0
        let featurizer = self.featurizer
        featurizer.forEachTerm(in: text) { term in
            total += 1
            guard kept() else {
                previous = nil
                return
            }
            terms.append(termID(term, nGramsOnly: false))
            if featurizer.usesBigrams {
                if let p = previous, let bucket = featurizer.bigramBucket(prefix: p, second: term) {
                    bigrams.append(Int32(bucket))
                }
                previous = featurizer.bigramPrefix(term)
            }
        }
        return (terms, bigrams, total)
    }

    /// Adds `text` with its terms represented by their character n-grams only (no unigram, no
    /// bigram), as a typo'd or unseen word is at inference: trains the n-gram rows to carry the
    /// word's meaning on their own. False if it has no terms.
    @discardableResult
    mutating func addNGramsOnly(_ text: String, target: Int, weight: Float) -> Bool {
        var terms: [Int32] = []
        featurizer.forEachTerm(in: text) { term in terms.append(termID(term, nGramsOnly: true)) }
        return appendExample(terms: terms, bigrams: [], target: target, weight: weight)
    }

    /// The id of `term`'s feature set, adding it on first sight: all its word features, or only
    /// its character n-grams (a separate entry, keyed apart by a leading U+0001).
    private mutating func termID(_ term: UnsafeBufferPointer<UInt8>, nGramsOnly: Bool) -> Int32 {
        let key = (nGramsOnly ? "\u{1}" : "") + String(decoding: term, as: UTF8.self)
        if let known = termIDs[key] { return known }
        let id = Int32(termCount)
        termIDs[key] = id
        if nGramsOnly {
            featurizer.forEachCharNGram(of: term) { bucket, w in
                termFeatureBuckets.append(Int32(bucket))
                termFeatureWeights.append(w)
            }
        } else {
            featurizer.forEachWordFeature(of: term) { bucket, w in
                termFeatureBuckets.append(Int32(bucket))
                termFeatureWeights.append(w)
            }
        }
        termFeatureOffsets.append(Int32(termFeatureBuckets.count))
        return id
    }

    /// Records one example; false (and nothing recorded) when it has no terms.
    private mutating func appendExample(terms: [Int32], bigrams: [Int32], target: Int, weight: Float) -> Bool {
        if terms.isEmpty { return false }
        exampleTerms += terms
        exampleTermOffsets.append(Int32(exampleTerms.count))
        exampleBigrams += bigrams
        exampleBigramOffsets.append(Int32(exampleBigrams.count))
        let root = weight.squareRoot()
        exampleScale.append(root / Self.poolingDivisor(terms: terms.count, power: poolingPower))
        exampleTargetScale.append(root)
        exampleTarget.append(Int32(target))
        return true
    }

    /// Drops the term dictionary (only needed while adding).
    mutating func finish() { termIDs = [:] }

    var featureNonZeros: Int { termFeatureBuckets.count + exampleTerms.count + exampleBigrams.count }
}

extension TrainingSet {
    /// Each example's fitted scale s_i = ⟨p_i, y_i⟩ / ‖y_i‖², p_i its prediction under `table`
    /// (B × d, row-major) without the example weight, y_i its target row; 1 where the target is
    /// zero. One pass over the design on one thread (about 100 s for `make model`'s 1.4 million
    /// texts).
    func fittedScales(table: [Float], targets: [Float], dimension d: Int) -> [Float] {
        var scales = [Float](repeating: 1, count: exampleCount)
        var v = [Float](repeating: 0, count: d)
        var p = [Float](repeating: 0, count: d)
        let bw = bigramWeight
        table.withUnsafeBufferPointer { e in
            targets.withUnsafeBufferPointer { y in
                for i in 0..<exampleCount {
                    for j in 0..<d { p[j] = 0 }
                    for k in Int(exampleTermOffsets[i])..<Int(exampleTermOffsets[i + 1]) {
                        let t = Int(exampleTerms[k])
                        for j in 0..<d { v[j] = 0 }
                        for f in Int(termFeatureOffsets[t])..<Int(termFeatureOffsets[t + 1]) {
                            let w = termFeatureWeights[f]
                            let row = Int(termFeatureBuckets[f]) * d
                            for j in 0..<d { v[j] += w * e[row + j] }
                        }
                        for j in 0..<d { p[j] += v[j] }
                    }
                    for k in Int(exampleBigramOffsets[i])..<Int(exampleBigramOffsets[i + 1]) {
                        let row = Int(exampleBigrams[k]) * d
                        for j in 0..<d { p[j] += bw * e[row + j] }
                    }
                    // exampleScale = sqrt(c) / n^p and the target is sqrt(c) · y: p / n^p.
                    let a = exampleTargetScale[i] > 0 ? exampleScale[i] / exampleTargetScale[i] : 0
                    let target = Int(exampleTarget[i]) * d
                    var py: Float = 0
                    var yy: Float = 0
                    for j in 0..<d {
                        py += a * p[j] * y[target + j]
                        yy += y[target + j] * y[target + j]
                    }
                    if yy > 0 { scales[i] = py / yy }
                }
            }
        }
        return scales
    }

    /// Divides each example's design scale by its factor: the example's predicted length is then
    /// its target's, and its error weighs as the angle between them (a cosine-like refit).
    mutating func divideExampleScales(by factors: [Float]) {
        precondition(factors.count == exampleCount)
        for i in 0..<exampleCount { exampleScale[i] /= factors[i] }
    }
}
