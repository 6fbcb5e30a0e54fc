import Foundation
import Sift

/// `sift-train train --extend-words W,...`: words taken off the model's stop-word list after the
/// fit (the negations no, not, nor), each given a unigram row fitted with every other row held
/// as fitted. Only the texts that hold one of the words change: each such example's residual
/// under the new featurisation (the word's character n-grams now counted, its term in the mean)
/// is fitted by the words' unigram rows — a least-squares problem with one unknown row per
/// word, solved exactly. A text without the words embeds as before; so does every query the
/// library weights by idf, since the words stay stop words of the keyword index (weight ≈ 0).
struct WordExtension {
    let words: [String]
    let lambda: Float
    /// The fit's pooling power: a text's sum divided by terms^p (`--pooling-power`).
    var poolingPower: Float = 1

    struct Outcome {
        var featurizer: NGramFeaturizer
        var examples: Int
        var buckets: [Int]
    }

    /// Extends `table` (buckets × d, fitted with `featurizer`) in place; `texts[i]` was fitted to
    /// target row `i` of `targets` (d wide) with weight `weights[i]`.
    func extend(
        table: inout [Float], featurizer: NGramFeaturizer, texts: [String], targets: [Float], weights: [Float], dimension d: Int
    ) throws -> Outcome {
        let featured = Set(words)
        guard let base = featurizer.vocabulary, !featured.isEmpty else {
            throw TrainError("--extend-words needs a vocabulary filter and at least one word")
        }
        if let w = words.first(where: { !featurizer.stopWords.contains($0) }) {
            throw TrainError("--extend-words: \"\(w)\" is not on the model's stop-word list (a word off it has features already)")
        }
        var filter = base
        for w in words { Array(w.utf8).withUnsafeBufferPointer { filter.insert(NGramFeaturizer.unigramHash($0)) } }
        let extended = featurizer.with(stopWords: featurizer.stopWords.filter { !featured.contains($0) }, vocabulary: filter)
        // The unknowns: the unigram bucket of each word (two words sharing one bucket share it).
        var buckets: [Int] = []
        for w in words {
            extended.forEachFeature(in: w) { bucket, _, kind in
                if kind == .word, !buckets.contains(bucket) { buckets.append(bucket) }
            }
        }
        let k = buckets.count
        var gram = [Double](repeating: 0, count: k * k)
        var right = [Double](repeating: 0, count: k * d)
        var examples = 0
        var sum = [Float](repeating: 0, count: d)
        var g = [Double](repeating: 0, count: k)
        for (i, text) in texts.enumerated() {
            var terms = 0
            var holds = false
            extended.forEachTerm(in: text) { term in
                terms += 1
                if !holds, featured.contains(String(decoding: term, as: UTF8.self)) { holds = true }
            }
            guard holds else { continue }
            examples += 1
            for j in 0..<d { sum[j] = 0 }
            for j in 0..<k { g[j] = 0 }
            let root = weights[i].squareRoot()
            let a = root / TrainingSet.poolingDivisor(terms: terms, power: poolingPower)
            extended.forEachFeature(in: text) { bucket, w, _ in
                let row = bucket * d
                for j in 0..<d { sum[j] += w * table[row + j] }
                if let u = buckets.firstIndex(of: bucket) { g[u] += Double(a * w) }
            }
            for u in 0..<k {
                for v in 0..<k { gram[u * k + v] += g[u] * g[v] }
                for j in 0..<d { right[u * d + j] += g[u] * Double(root * targets[i * d + j] - a * sum[j]) }
            }
        }
        for u in 0..<k { gram[u * k + u] += Double(lambda) }
        let delta = try Self.solve(gram, right, k: k, d: d)
        for (u, bucket) in buckets.enumerated() {
            for j in 0..<d { table[bucket * d + j] += Float(delta[u * d + j]) }
        }
        return Outcome(featurizer: extended, examples: examples, buckets: buckets)
    }

    /// Solves gram · X = right (k × k, k × d) by Gaussian elimination with partial pivoting.
    static func solve(_ gram: [Double], _ right: [Double], k: Int, d: Int) throws -> [Double] {
        var a = gram
        var b = right
        for c in 0..<k {
            guard let p = (c..<k).max(by: { abs(a[$0 * k + c]) < abs(a[$1 * k + c]) }), abs(a[p * k + c]) > 1e-12 else {
                throw TrainError("--extend-words: the words' rows are not determined (no example holds one)")
            }
            if p != c {
                for j in 0..<k { a.swapAt(p * k + j, c * k + j) }
                for j in 0..<d { b.swapAt(p * d + j, c * d + j) }
            }
            for r in 0..<k where r != c {
                let f = a[r * k + c] / a[c * k + c]
                if f == 0 { continue }
                for j in 0..<k { a[r * k + j] -= f * a[c * k + j] }
                for j in 0..<d { b[r * d + j] -= f * b[c * d + j] }
            }
        }
        for r in 0..<k { for j in 0..<d { b[r * d + j] /= a[r * k + r] } }
        return b
    }
}
