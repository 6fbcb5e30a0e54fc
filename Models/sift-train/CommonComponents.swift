import Foundation

/// An experiment of `sift-train eval --common K`: the collection's common directions taken out of
/// every vector before the cosine (Mu & Viswanath 2018, "all-but-the-top"; Arora et al. 2017's
/// common component removal): the documents' mean is subtracted from documents and queries, then
/// the documents' top K principal directions are projected out, and both are renormalised.
enum CommonComponents {
    static func remove(queries: [Float], docs: [Float], dimension d: Int, components k: Int, center: Bool)
        throws -> (queries: [Float], docs: [Float])
    {
        let n = docs.count / d
        var mean = [Float](repeating: 0, count: d)
        if center {
            var acc = [Double](repeating: 0, count: d)
            for i in 0..<n { for j in 0..<d { acc[j] += Double(docs[i * d + j]) } }
            for j in 0..<d { mean[j] = Float(acc[j] / Double(n)) }
        }
        let pca = k > 0 ? try PCA(rows: docs, count: n, dimension: d, keep: k, center: center) : nil
        func clean(_ rows: [Float]) -> [Float] {
            var out = rows
            let m = rows.count / d
            for i in 0..<m {
                var v = Array(rows[(i * d)..<((i + 1) * d)])
                for j in 0..<d { v[j] -= mean[j] }
                if let pca {
                    for c in 0..<k {
                        var dot: Float = 0
                        for j in 0..<d { dot += v[j] * pca.components[j * k + c] }
                        for j in 0..<d { v[j] -= dot * pca.components[j * k + c] }
                    }
                }
                var s: Float = 0
                for x in v { s += x * x }
                let inv = s > 0 ? 1 / s.squareRoot() : 0
                for j in 0..<d { out[i * d + j] = v[j] * inv }
            }
            return out
        }
        return (clean(queries), clean(docs))
    }
}
