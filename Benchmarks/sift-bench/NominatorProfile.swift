import Foundation
import Sift
import SiftEvaluation

/// `sift-bench --profile-nominators`: how well cheap codes nominate the rows that an exact scan
/// ranks best, on the model's vectors of the synthetic corpus at the largest `--sizes`: for each
/// code and number of nominees, the share of the exact top 10 and top 100 that re-scoring the
/// nominees exactly recovers (mean over the size's queries).
enum NominatorProfile {
    static func run(options: BenchOptions) {
        let (embedderOrNil, label) = BenchModel.load(options.model)
        guard let embedder = embedderOrNil else {
            print("no model: \(label)")
            return
        }
        let n = options.sizes.max() ?? 100_000
        let items = SyntheticCorpus(seed: options.seed).items(count: n)
        let queries = BenchQueries.make(from: items, count: min(options.queries, 200), seed: options.seed ^ UInt64(n))
        let d = embedder.dimension
        Progress.log("embedding \(n) items")
        var matrix = [Float](repeating: 0, count: n * d)
        matrix.withUnsafeMutableBufferPointer { m in
            nonisolated(unsafe) let base = m.baseAddress!
            DispatchQueue.concurrentPerform(iterations: 64) { c in
                for i in (n * c / 64)..<(n * (c + 1) / 64) {
                    let v = embedder.embed(item: items[i], titleWeight: 5)
                    for j in 0..<d { base[i * d + j] = v[j] }
                }
            }
        }
        var exact = VectorIndex(dimension: d, quantized: true, precision: .float32)
        for r in 0..<n { exact.set(row: Int32(r), vector: Array(matrix[(r * d)..<((r + 1) * d)])) }
        // Sign bits, 64 per word.
        let words = d / 64
        var bits = [UInt64](repeating: 0, count: n * words)
        for r in 0..<n { for j in 0..<d where matrix[r * d + j] > 0 { bits[r * words + j / 64] |= 1 << UInt64(j % 64) } }
        let budgets = [500, 1000, 2000, 4000, 8000]
        var recall: [String: [Int: (Double, Double)]] = [:]
        var scores = [Float](repeating: 0, count: n)
        func top(_ s: [Float], _ k: Int) -> [Int] {
            var idx = Array(0..<n)
            idx.sort { s[$0] != s[$1] ? s[$0] > s[$1] : $0 < $1 }
            return Array(idx.prefix(k))
        }
        func add(_ name: String, _ approx: [Float], _ truth10: Set<Int>, _ truth100: Set<Int>, _ exactScores: [Float]) {
            let order = top(approx, budgets.max()!)
            for m in budgets {
                let nominees = order.prefix(m).sorted { exactScores[$0] != exactScores[$1] ? exactScores[$0] > exactScores[$1] : $0 < $1 }
                let r10 = Double(Set(nominees.prefix(10)).intersection(truth10).count) / 10
                let r100 = Double(Set(nominees.prefix(100)).intersection(truth100).count) / 100
                let old = recall[name, default: [:]][m] ?? (0, 0)
                recall[name, default: [:]][m] = (old.0 + r10, old.1 + r100)
            }
        }
        Progress.log("scoring \(queries.count) queries")
        for q in queries {
            let v = embedder.embed(q.text)
            exact.scores(for: v, into: &scores)
            let e = scores
            let t = top(e, 100)
            let t10 = Set(t.prefix(10))
            let t100 = Set(t)
            var qb = [UInt64](repeating: 0, count: words)
            for j in 0..<d where v[j] > 0 { qb[j / 64] |= 1 << UInt64(j % 64) }
            var ham = [Float](repeating: 0, count: n)
            var asym = [Float](repeating: 0, count: n)
            var p64 = [Float](repeating: 0, count: n)
            var p128 = [Float](repeating: 0, count: n)
            for r in 0..<n {
                var h = 0
                for w in 0..<words { h += (bits[r * words + w] ^ qb[w]).nonzeroBitCount }
                ham[r] = Float(-h)
                var a: Float = 0
                var s64: Float = 0
                var s128: Float = 0
                for j in 0..<d {
                    let x = matrix[r * d + j]
                    a += x > 0 ? v[j] : -v[j]
                    if j < 64 { s64 += x * v[j] }
                    if j < 128 { s128 += x * v[j] }
                }
                asym[r] = a
                p64[r] = s64
                p128[r] = s128
            }
            exact.quantized!.approximateScores(for: v, into: &scores)
            add("int8 (all 256)", scores, t10, t100, e)
            add("sign bits, Hamming", ham, t10, t100, e)
            add("sign bits, float query", asym, t10, t100, e)
            add("first 64 dims", p64, t10, t100, e)
            add("first 128 dims", p128, t10, t100, e)
        }
        print("nominees:", budgets.map(String.init).joined(separator: " "))
        for (name, byBudget) in recall.sorted(by: { $0.key < $1.key }) {
            let cells = budgets.map { m in
                String(format: "%.3f/%.3f", byBudget[m]!.0 / Double(queries.count), byBudget[m]!.1 / Double(queries.count))
            }
            print(name.padding(toLength: 26, withPad: " ", startingAt: 0), cells.joined(separator: "  "))
        }
    }
}
