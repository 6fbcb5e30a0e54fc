import Foundation

/// Step 1 of ``Ranker``: the candidates, from both halves.
extension Ranker {
    /// Keyword half: BM25F of every row that matches the query's terms (none in semantic mode).
    mutating func scoreKeywordMatches() {
        if request.mode != .semantic { state.keyword.accumulate(request.terms, into: &buffers.accumulator) }
        bm25 = buffers.accumulator.takeScores()
    }

    /// Semantic half: the cosine of every row, one pass over the matrix — over the int8 copy
    /// when the index keeps one, whose scores only nominate (``nominateBySemantic()``).
    mutating func scanVectors() {
        guard request.mode != .keyword, let embedder, let vectors = state.vectors else { return }
        semantic.queryVector = QueryTermWeights(keyword: state.keyword, exponent: fusion.queryTermWeighting).embed(
            request.text, with: embedder)
        if let quantized = vectors.quantized {
            quantized.approximateScores(for: semantic.queryVector, into: &buffers.cosine)
            semantic.approximate = true
        } else {
            vectors.scores(for: semantic.queryVector, into: &buffers.cosine)
        }
        semantic.hasCosine = true
    }

    /// The candidates of hybrid and semantic mode, marked in ``RankingBuffers/isCandidate``:
    /// the keyword matches that pass the filters (bounded on a large index), then the best rows
    /// by cosine that pass them.
    mutating func gatherCandidates() {
        if request.mode != .semantic {
            takeKeywordMatches()
            boundKeywordCandidates()
            for row in candidates { buffers.isCandidate[Int(row)] = true }
        }
        if semantic.hasCosine { nominateBySemantic() }
    }

    /// The keyword matches that pass the filters (postings hold only live rows).
    mutating func takeKeywordMatches() {
        if filter.admitsEveryLiveRow {
            candidates = buffers.accumulator.touched
        } else {
            for row in buffers.accumulator.touched where filter.admits(row) { candidates.append(row) }
        }
    }

    /// A large index (``FusionParameters/keywordCandidates``): only the matches scoring at
    /// least the m-th best BM25F stay (ties kept, so no identifier is compared), and every match
    /// whose title may begin with the query (the title-prefix boost can lift it from below them).
    mutating func boundKeywordCandidates() {
        let m = fusion.keywordCandidates
        guard request.mode == .hybrid, m > 0, candidates.count > m else { return }
        let titled = priors.titled
        let accumulator = buffers.accumulator
        var best = BoundedHeap<Float>(k: m)
        bm25.withUnsafeBufferPointer { scores in
            candidates.withUnsafeBufferPointer { rows in
                // The rows' scores are scattered reads.
                for i in 0..<rows.count {
                    if i % ScatteredReads.block == 0 {
                        ScatteredReads.prefetch(rows, before: i, (UnsafeRawPointer(scores.baseAddress), MemoryLayout<Float>.stride))
                    }
                    let row = rows[i]
                    guard !(titled && accumulator.mayBeginTitle(row: row)) else { continue }
                    let score = scores[Int(row)]
                    if !best.isFull || score > best.worst! { best.offer(score) { $0 < $1 } }
                }
            }
        }
        if best.isFull, let floor = best.worst {
            let bm25 = self.bm25
            candidates = candidates.filter { bm25[Int($0)] >= floor || (titled && accumulator.mayBeginTitle(row: $0)) }
        }
    }

    /// The best rows by cosine that pass the filters join the candidates. Semantic mode takes
    /// as many as hybrid: the priors (donations, ranking hint, domain boost) may lift an item
    /// from below the top k by cosine alone. The int8 scan only nominates: it takes more,
    /// re-scores them exactly and keeps the best of them by exact cosine, as the exact scan
    /// would have.
    mutating func nominateBySemantic() {
        let wanted = max(fusion.semanticCandidates, request.limit)
        let keywordCandidates = candidates.count
        let k = semantic.approximate ? state.vectors?.quantized?.nominees(for: wanted) ?? wanted : wanted
        let order = self.order
        var nominees = bestByCosine(k: k).sorted(precedes: order.precedes).map(\.row)
        if semantic.approximate, let vectors = state.vectors {
            vectors.exactScores(for: semantic.queryVector, rows: nominees, into: &buffers.cosine)
            var exact = RowTopK(k: wanted)
            for row in nominees { exact.insert(score: buffers.cosine[Int(row)], row: row, precedes: order.precedes) }
            nominees = exact.sorted(precedes: order.precedes).map(\.row)
            // The keyword matches' exact cosines.
            vectors.exactScores(for: semantic.queryVector, rows: Array(candidates[0..<keywordCandidates]), into: &buffers.cosine)
        }
        for row in nominees where !buffers.isCandidate[Int(row)] {
            candidates.append(row)
            buffers.isCandidate[Int(row)] = true
        }
    }

    /// The best `k` rows by cosine that pass the filters. Without a filter, the best rows by
    /// score, then those without a vector (free rows) taken out; only if one was does the
    /// selection run again, row by row. Ties with a free row (which has no id) put it after
    /// every item, free rows by row.
    private mutating func bestByCosine(k: Int) -> RowTopK {
        var best = RowTopK(k: k)
        var filter = self.filter
        defer { self.filter = filter }
        let order = self.order
        let items = self.items
        let capacity = self.capacity
        let occupied = filter.admitsEveryLiveRow ? state.vectors?.occupied : nil
        buffers.cosine.withUnsafeBufferPointer { cosine in
            guard let occupied else {
                Self.nominate(cosine, capacity: capacity, into: &best, precedes: order.precedes) { r in filter.admits(Int32(r)) }
                return
            }
            let precedesOrFree = { (a: Int32, b: Int32) -> Bool in
                switch (items[Int(a)] == nil, items[Int(b)] == nil) {
                case (false, false): order.precedes(a, b)
                case (true, true): a < b
                case (let aFree, _): !aFree
                }
            }
            Self.nominate(cosine, capacity: capacity, into: &best, precedes: precedesOrFree) { _ in true }
            if best.sorted(precedes: precedesOrFree).contains(where: { !(Int($0.row) < occupied.count && occupied[Int($0.row)]) }) {
                best = RowTopK(k: k)
                Self.nominate(cosine, capacity: capacity, into: &best, precedes: order.precedes) { r in
                    r < occupied.count && occupied[r]
                }
            }
        }
        return best
    }

    /// The best rows by score that `passes`, offered to `best` (the threshold search runs in
    /// SIMD, `LinearAlgebra.nextAtLeast`; the score test first: most rows fail it).
    private static func nominate(
        _ cosine: UnsafeBufferPointer<Float>, capacity: Int, into best: inout RowTopK, precedes: (Int32, Int32) -> Bool,
        passes: (Int) -> Bool
    ) {
        guard capacity > 0, let base = cosine.baseAddress else { return }
        var threshold = best.threshold
        var r = 0
        while true {
            r += LinearAlgebra.nextAtLeast(base + r, count: capacity - r, threshold)
            guard r < capacity else { break }
            if passes(r) {
                best.insert(score: cosine[r], row: Int32(r), precedes: precedes)
                threshold = best.threshold
            }
            r += 1
        }
    }
}
