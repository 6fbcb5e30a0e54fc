import Foundation

/// An experiment of `sift-train eval --common K`: the collection's common directions taken out of
/// every vector before the cosine (Mu & Viswanath 2018, "all-but-the-top"; Arora et al. 2017's
/// common component removal): the documents' mean is subtracted from documents and queries, then
/// the documents' top K principal directions are projected out, and both are renormalised.
enum CommonComponents {
    static func remove(queries: [Float], docs: [Float], dimension d: Int, components k: Int, center: Bool)
        throws -> (queries: [Float], docs: [Float])
    {
        // The PCA's mean (zeros when not centred) is the one taken out; with k = 0 only it is used.
        let pca = try PCA(rows: docs, count: docs.count / d, dimension: d, keep: k, center: center)
        let mean = pca.mean
        func clean(_ rows: [Float]) -> [Float] {
            var out = rows
            let m = rows.count / d
            for i in 0..<m {
                var v = Array(rows[(i * d)..<((i + 1) * d)])
                for j in 0..<d { v[j] -= mean[j] }
                for c in 0..<k {
                    var dot: Float = 0
                    for j in 0..<d { dot += v[j] * pca.components[j * k + c] }
                    for j in 0..<d { v[j] -= dot * pca.components[j * k + c] }
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
