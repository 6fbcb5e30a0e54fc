import Foundation
import Sift

/// Contrastive tuning of a fitted table on short → long pairs: each short text's unit vector is
/// pulled towards its own long text's and pushed from the other long texts of its batch (and
/// each long text's from the other short texts), the symmetric InfoNCE loss with in-batch
/// negatives at temperature τ. The least-squares fit places each text near its teacher vector;
/// this asks only that a query-like text be nearer its own document than the others, as search
/// does. `anchor` pulls every changed row back towards the fitted table (a ridge on the change).
struct ContrastiveTuner {
    var batch = 256
    var steps = 2000
    var learningRate: Float = 0.002
    var temperature: Float = 0.05
    var anchor: Float = 0
    var seed: UInt64 = 20_261_207

    /// Tunes `table` (buckets × `dimension`, row-major) in place; `set`'s examples come two by two,
    /// a short text then its long text. Per-row AdaGrad (one accumulator a row).
    func tune(table: inout [Float], set: TrainingSet, dimension d: Int, note: (String) -> Void) {
        let pairs = set.exampleCount / 2
        precondition(pairs >= batch, "fewer pairs than a batch")
        let buckets = table.count / d
        let fitted = table
        var gradient = [Float](repeating: 0, count: table.count)
        var accumulator = [Float](repeating: 0, count: buckets)
        var touched = [Bool](repeating: false, count: buckets)
        var touchedList: [Int32] = []
        var random = SplitMix64(seed: seed)
        var order = Array(0..<pairs)
        var cursor = pairs
        let b = batch
        let bigramWeight = set.bigramWeight
        // Unit vectors (2b × d: shorts, then longs), their lengths before normalising, gradients.
        var u = [Float](repeating: 0, count: 2 * b * d)
        var length = [Float](repeating: 0, count: 2 * b)
        var du = [Float](repeating: 0, count: 2 * b * d)
        var scores = [Float](repeating: 0, count: b * b)
        var examples = [Int](repeating: 0, count: 2 * b)
        var lossSum: Double = 0
        var correct = 0
        var logged = 0  // batches since the last line of the log
        let t0 = Date()

        func forEachFeature(of example: Int, _ body: (Int, Float) -> Void) {
            for i in Int(set.exampleTermOffsets[example])..<Int(set.exampleTermOffsets[example + 1]) {
                let t = Int(set.exampleTerms[i])
                for k in Int(set.termFeatureOffsets[t])..<Int(set.termFeatureOffsets[t + 1]) {
                    body(Int(set.termFeatureBuckets[k]), set.termFeatureWeights[k])
                }
            }
            if bigramWeight > 0 {
                for i in Int(set.exampleBigramOffsets[example])..<Int(set.exampleBigramOffsets[example + 1]) {
                    body(Int(set.exampleBigrams[i]), bigramWeight)
                }
            }
        }

        for step in 0..<steps {
            if cursor + b > pairs {
                for i in stride(from: pairs - 1, to: 0, by: -1) { order.swapAt(i, random.below(i + 1)) }
                cursor = 0
            }
            for i in 0..<b {
                examples[i] = 2 * order[cursor + i]
                examples[b + i] = 2 * order[cursor + i] + 1
            }
            cursor += b
            // Forward: each text's sum of rows, normalised.
            table.withUnsafeBufferPointer { e in
                u.withUnsafeMutableBufferPointer { u in
                    for j in 0..<(2 * b) {
                        let out = u.baseAddress! + j * d
                        out.update(repeating: 0, count: d)
                        forEachFeature(of: examples[j]) { bucket, w in
                            let row = e.baseAddress! + bucket * d
                            for k in 0..<d { out[k] += w * row[k] }
                        }
                        var n: Float = 0
                        for k in 0..<d { n += out[k] * out[k] }
                        let l = max(n.squareRoot(), 1e-12)
                        length[j] = l
                        for k in 0..<d { out[k] /= l }
                    }
                }
            }
            // Scores S_ij = q_i · p_j / τ and the symmetric loss's gradient dS.
            let invT = 1 / temperature
            u.withUnsafeBufferPointer { u in
                for i in 0..<b {
                    let q = u.baseAddress! + i * d
                    for j in 0..<b {
                        let p = u.baseAddress! + (b + j) * d
                        var s: Float = 0
                        for k in 0..<d { s += q[k] * p[k] }
                        scores[i * b + j] = s * invT
                    }
                }
            }
            var dS = [Float](repeating: 0, count: b * b)
            let invB = 1 / Float(b)
            for i in 0..<b {  // rows: each short text against every long text
                var m = -Float.infinity
                for j in 0..<b { m = max(m, scores[i * b + j]) }
                var z: Float = 0
                for j in 0..<b { z += exp(scores[i * b + j] - m) }
                var best = 0
                for j in 0..<b {
                    let p: Float = exp(scores[i * b + j] - m) / z
                    let target: Float = i == j ? 1 : 0
                    dS[i * b + j] += (p - target) * invB * 0.5
                    if scores[i * b + j] > scores[i * b + best] { best = j }
                }
                let rowLoss: Float = m + Foundation.log(z) - scores[i * b + i]
                lossSum += Double(rowLoss) * 0.5
                if best == i { correct += 1 }
            }
            for j in 0..<b {  // columns: each long text against every short text
                var m = -Float.infinity
                for i in 0..<b { m = max(m, scores[i * b + j]) }
                var z: Float = 0
                for i in 0..<b { z += exp(scores[i * b + j] - m) }
                for i in 0..<b {
                    let p: Float = exp(scores[i * b + j] - m) / z
                    let target: Float = i == j ? 1 : 0
                    dS[i * b + j] += (p - target) * invB * 0.5
                }
                let columnLoss: Float = m + Foundation.log(z) - scores[j * b + j]
                lossSum += Double(columnLoss) * 0.5
            }
            // dq_i = Σ_j dS_ij p_j / τ, dp_j = Σ_i dS_ij q_i / τ; then through the normalisation.
            u.withUnsafeBufferPointer { u in
                du.withUnsafeMutableBufferPointer { du in
                    du.update(repeating: 0)
                    for i in 0..<b {
                        let q = u.baseAddress! + i * d
                        let dq = du.baseAddress! + i * d
                        for j in 0..<b {
                            let g = dS[i * b + j] * invT
                            if g == 0 { continue }
                            let p = u.baseAddress! + (b + j) * d
                            let dp = du.baseAddress! + (b + j) * d
                            for k in 0..<d {
                                dq[k] += g * p[k]
                                dp[k] += g * q[k]
                            }
                        }
                    }
                    for j in 0..<(2 * b) {
                        let x = u.baseAddress! + j * d
                        let g = du.baseAddress! + j * d
                        var dot: Float = 0
                        for k in 0..<d { dot += x[k] * g[k] }
                        let l = length[j]
                        for k in 0..<d { g[k] = (g[k] - x[k] * dot) / l }
                    }
                }
            }
            // Scatter into the rows' gradients.
            du.withUnsafeBufferPointer { du in
                gradient.withUnsafeMutableBufferPointer { grad in
                    for j in 0..<(2 * b) {
                        let g = du.baseAddress! + j * d
                        forEachFeature(of: examples[j]) { bucket, w in
                            if !touched[bucket] {
                                touched[bucket] = true
                                touchedList.append(Int32(bucket))
                            }
                            let row = grad.baseAddress! + bucket * d
                            for k in 0..<d { row[k] += w * g[k] }
                        }
                    }
                }
            }
            // AdaGrad step on the rows touched, with the anchor to the fitted rows.
            table.withUnsafeMutableBufferPointer { e in
                gradient.withUnsafeMutableBufferPointer { grad in
                    fitted.withUnsafeBufferPointer { f in
                        for r in touchedList {
                            let bucket = Int(r)
                            let row = e.baseAddress! + bucket * d
                            let g = grad.baseAddress! + bucket * d
                            let f0 = f.baseAddress! + bucket * d
                            var sq: Float = 0
                            for k in 0..<d {
                                g[k] += anchor * (row[k] - f0[k])
                                sq += g[k] * g[k]
                            }
                            accumulator[bucket] += sq / Float(d)
                            let rate = learningRate / (accumulator[bucket].squareRoot() + 1e-8)
                            for k in 0..<d {
                                row[k] -= rate * g[k]
                                g[k] = 0
                            }
                            touched[bucket] = false
                        }
                    }
                }
            }
            touchedList.removeAll(keepingCapacity: true)
            logged += 1
            if (step + 1) % 200 == 0 || step + 1 == steps {
                let texts = Double(logged * b)
                note(
                    String(
                        format: "contrastive step %d: loss %.4f, in-batch top-1 %.3f (%@)", step + 1,
                        lossSum / texts, Double(correct) / texts, elapsed(t0)))
                lossSum = 0
                correct = 0
                logged = 0
            }
        }
        var change: Double = 0
        var norm: Double = 0
        for i in 0..<table.count {
            change += Double((table[i] - fitted[i]) * (table[i] - fitted[i]))
            norm += Double(fitted[i] * fitted[i])
        }
        note(String(format: "contrastive: relative change of the table %.4f", (change / max(norm, 1e-30)).squareRoot()))
    }
}
