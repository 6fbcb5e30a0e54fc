import Foundation

/// Min-max normalisation of both halves over one set of candidates: BM25F over the best of
/// them (0 when none matches a word), cosine between the worst and the best (1 when they are
/// equal). Fusion and both feedback steps normalise with it.
struct MinMaxNormalizer {
    private(set) var maxKeyword: Float = 0
    private(set) var topCosine: Float = -1
    private(set) var floorCosine: Float = 1

    init() {}

    /// Over `rows`' keyword scores and, when given, their cosines; the cosines of `floorRows`
    /// (matches the bound on keyword candidates left out) count toward the floor as well.
    init(rows: [Int32], keyword: [Float], cosine: [Float]?, floorRows: [Int32] = []) {
        for row in rows {
            maxKeyword = max(maxKeyword, keyword[Int(row)])
            if let cosine {
                topCosine = max(topCosine, cosine[Int(row)])
                floorCosine = min(floorCosine, cosine[Int(row)])
            }
        }
        if let cosine { for row in floorRows { floorCosine = min(floorCosine, cosine[Int(row)]) } }
    }

    @inline(__always)
    func keyword(_ score: Float) -> Float { maxKeyword > 0 ? score / maxKeyword : 0 }

    @inline(__always)
    func semantic(_ cosine: Float) -> Float {
        topCosine > floorCosine ? (cosine - floorCosine) / (topCosine - floorCosine) : 1
    }

    /// Linear fusion: α · normalised BM25F + (1 − α) · normalised cosine.
    @inline(__always)
    func linear(alpha: Float, keyword score: Float, cosine: Float) -> Float {
        alpha * keyword(score) + (1 - alpha) * semantic(cosine)
    }
}

/// Reciprocal-rank fusion's ranks: each candidate's place by BM25F (matches only) and by
/// cosine, ties by item id.
struct ReciprocalRanks {
    var keyword: [Int32: Int] = [:]
    var semantic: [Int32: Int] = [:]

    init() {}

    init(candidates: [Int32], keyword scores: [Float], cosine: [Float], order: ItemOrder) {
        let byKeyword = candidates.filter { scores[Int($0)] > 0 }.sorted {
            scores[Int($0)] != scores[Int($1)] ? scores[Int($0)] > scores[Int($1)] : order.precedes($0, $1)
        }
        for (i, r) in byKeyword.enumerated() { keyword[r] = i + 1 }
        let bySemantic = candidates.sorted {
            cosine[Int($0)] != cosine[Int($1)] ? cosine[Int($0)] > cosine[Int($1)] : order.precedes($0, $1)
        }
        for (i, r) in bySemantic.enumerated() { semantic[r] = i + 1 }
    }

    /// Σ 1 / (k + rank) over the halves that rank `row`.
    func fused(_ row: Int32, k: Float) -> Float {
        (keyword[row].map { 1 / (k + Float($0)) } ?? 0) + (semantic[row].map { 1 / (k + Float($0)) } ?? 0)
    }
}

/// A candidate's relevance before the factors, and what it was made of.
struct Relevance {
    var keyword: Float
    var cosine: Float?
    var normalizedKeyword: Float
    var normalizedSemantic: Float
    /// BM25F in keyword mode, cosine in semantic mode, both halves fused in hybrid mode.
    var value: Float
}

/// Step 3 of ``Ranker``: fusion.
extension Ranker {
    /// The fusion inputs over the final candidates (after feedback).
    mutating func prepareFusion() {
        // Outside linear hybrid fusion the normalised scores only explain a result: a pass over
        // every candidate (every match, in keyword mode) that an unexplained query skips.
        var linear = false
        if case .linear = fusion.method { linear = request.mode == .hybrid }
        if linear || request.explain {
            normalizer = MinMaxNormalizer(
                rows: candidates, keyword: bm25, cosine: semantic.hasCosine ? buffers.cosine : nil, floorRows: floorRows)
        }
        if request.mode == .hybrid, case .reciprocalRank = fusion.method {
            reciprocalRanks = ReciprocalRanks(candidates: candidates, keyword: bm25, cosine: buffers.cosine, order: order)
        }
    }

    /// The relevance of a candidate: the fused (or single-half) score before the factors.
    @inline(__always)
    func relevance(_ row: Int32) -> Relevance {
        let keywordScore = bm25[Int(row)]
        let c: Float? = semantic.hasCosine ? buffers.cosine[Int(row)] : nil
        let nk = normalizer.keyword(keywordScore)
        var ns: Float = 0
        if let c { ns = normalizer.semantic(c) }
        let r: Float
        switch request.mode {
        case .keyword: r = keywordScore
        case .semantic: r = c ?? 0
        case .hybrid:
            switch fusion.method {
            case .linear(let alpha): r = alpha * nk + (1 - alpha) * ns
            case .reciprocalRank(let k): r = reciprocalRanks.fused(row, k: k)
            }
        }
        return Relevance(keyword: keywordScore, cosine: c, normalizedKeyword: nk, normalizedSemantic: ns, value: r)
    }

    /// How the halves were fused, as `--explain` prints it.
    var fusionLabel: String {
        switch request.mode {
        case .keyword: "bm25f"
        case .semantic: "cosine"
        case .hybrid:
            switch fusion.method {
            case .linear(let alpha): "linear α=\(alpha)"
            case .reciprocalRank(let k): "rrf k=\(k)"
            }
        }
    }
}
