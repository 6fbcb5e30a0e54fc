import Foundation

/// Step 2 of ``Ranker``: pseudo-relevance feedback, hybrid mode with linear fusion only. The
/// first pass is the candidates ranked by the fused score; feedback re-scores the candidates
/// and never adds one. It may reorder what the query matches, but never lifts a candidate that
/// matches neither a word of the query nor its meaning (no BM25F, cosine below
/// ``FusionParameters/semanticMatchThreshold``): such a candidate keeps its cosine if feedback
/// would raise it, and gains nothing from the feedback terms.
extension Ranker {
    /// Feedback in vector space (Rocchio): the query vector moves towards the best few
    /// first-pass results, then the candidates' cosines are re-scored. Only the candidates are
    /// re-scored, so it costs c dot products, not another scan.
    mutating func applyVectorFeedback() {
        let documents = fusion.feedbackDocuments
        let beta = fusion.feedbackWeight
        guard request.mode == .hybrid, documents > 0, semantic.hasCosine, let vectors = state.vectors,
            case .linear(let alpha) = fusion.method
        else { return }
        let first = firstPass(alpha: alpha, count: documents).sorted(precedes: order.precedes).map(\.row)
        var q2 = semantic.queryVector
        for v in storedVectors(first, of: vectors) {
            for j in 0..<q2.count { q2[j] += beta / Float(documents) * v[j] }
        }
        let n = q2.reduce(Float(0)) { $0 + $1 * $1 }.squareRoot()
        if n > 0 { for j in 0..<q2.count { q2[j] /= n } }
        semantic.feedbackVector = q2
        let rescored = semantic.rescored
        let unmatched = unmatchedCandidates()
        let before = unmatched.map { buffers.cosine[Int($0)] }
        // The first pass has just read these rows (``nominateBySemantic()``).
        let rows = floorRows.isEmpty ? candidates : candidates + floorRows
        let cached = semantic.approximate
        if let guess = first.first, speculatesFeedbackTerms {
            // Keyword feedback will want the terms of the best result after this re-scoring,
            // and the best before it usually stays best: its terms are found on the other core
            // meanwhile, and used only if it did (``applyKeywordFeedback()``).
            let (items, keyword) = (state.items, state.keyword)
            let (exclude, count) = (feedbackExclusions, fusion.keywordFeedbackTerms)
            var cosine: [Float] = []
            swap(&cosine, &buffers.cosine)
            var terms: [KeywordIndex.FeedbackTerm] = []
            // Task 0 writes only `cosine`, task 1 only `terms`.
            Parallel.forEach(iterations: 2) { task in
                if task == 0 {
                    if rescored {
                        vectors.rescores(for: q2, rows: rows, into: &cosine, cached: cached)
                    } else {
                        vectors.exactScores(for: q2, rows: rows, into: &cosine, cached: cached)
                    }
                } else {
                    terms = keyword.feedbackTerms(of: [items[Int(guess)]!], exclude: exclude, count: count)
                }
            }
            swap(&cosine, &buffers.cosine)
            speculatedFeedback = (guess, terms)
        } else if rescored {
            vectors.rescores(for: q2, rows: rows, into: &buffers.cosine, cached: cached)
        } else {
            vectors.exactScores(for: q2, rows: rows, into: &buffers.cosine, cached: cached)
        }
        for (i, row) in unmatched.enumerated() { buffers.cosine[Int(row)] = min(buffers.cosine[Int(row)], before[i]) }
        if rescored { moveExactCosines() }
    }

    /// Whether vector feedback finds keyword feedback's terms for its own best first-pass
    /// result beside its re-scoring: keyword feedback from one document will run, on 2+ cores.
    private var speculatesFeedbackTerms: Bool {
        fusion.keywordFeedbackDocuments == 1 && fusion.keywordFeedbackTerms > 0 && Parallel.cores > 1
    }

    /// The query's own index terms, which feedback never adds.
    private var feedbackExclusions: Set<String> { Set(request.terms.flatMap(\.terms)) }

    /// The candidates that match neither a query word nor its meaning: no BM25F and no cosine at
    /// or above ``FusionParameters/semanticMatchThreshold``.
    func unmatchedCandidates() -> [Int32] {
        let threshold = semantic.hasCosine ? fusion.semanticMatchThreshold : .infinity
        return bm25.withUnsafeBufferPointer { bm25 in
            buffers.cosine.withUnsafeBufferPointer { cosine in
                candidates.filter { bm25[Int($0)] <= 0 && !(cosine[Int($0)] >= threshold) }
            }
        }
    }

    /// Keyword feedback (RM3-like): the best first-pass result lends its most telling terms to
    /// the keyword query, which re-scores the candidates (it adds none). What each candidate
    /// gained is kept in ``keywordFeedback`` for the explanation and for ``finish()``.
    mutating func applyKeywordFeedback() {
        guard request.mode == .hybrid, fusion.keywordFeedbackDocuments > 0, fusion.keywordFeedbackTerms > 0, semantic.hasCosine,
            case .linear(let alpha) = fusion.method
        else { return }
        let first = firstPass(alpha: alpha, count: fusion.keywordFeedbackDocuments).sorted(precedes: order.precedes).map(\.row)
        let terms: [KeywordIndex.FeedbackTerm]
        if let speculated = speculatedFeedback, first == [speculated.row] {
            terms = speculated.terms
        } else {
            terms = state.keyword.feedbackTerms(
                of: first.map { state.items[Int($0)]! }, exclude: feedbackExclusions, count: fusion.keywordFeedbackTerms)
        }
        report.feedbackTerms = terms
        let scale = fusion.keywordFeedbackWeight * Float(request.terms.count)

        var sums: [Float] = []
        var trace = KeywordFeedbackTrace()
        swap(&sums, &buffers.feedbackSums)
        if sums.count < capacity { sums += repeatElement(0, count: capacity - sums.count) }
        let keyword = state.keyword
        // Unmatched candidates are unmarked while the feedback terms are scored, then marked again.
        let unmatched = unmatchedCandidates()
        for row in unmatched { buffers.isCandidate[Int(row)] = false }
        let marks = buffers.isCandidate
        marks.withUnsafeBufferPointer { marks in
            keyword.addFeedbackScores(terms, admits: { marks[Int($0)] }, into: &sums, touched: &trace.rows)
        }
        for row in unmatched { buffers.isCandidate[Int(row)] = true }
        trace.added.reserveCapacity(trace.rows.count)
        trace.before.reserveCapacity(trace.rows.count)
        for row in trace.rows {
            let added = scale * sums[Int(row)]
            sums[Int(row)] = 0
            trace.added.append(added)
            trace.before.append(bm25[Int(row)])
            bm25[Int(row)] += added
        }
        swap(&sums, &buffers.feedbackSums)
        keywordFeedback = trace
    }

    /// The best `count` candidates by the fused first-pass score.
    func firstPass(alpha: Float, count: Int) -> RowTopK {
        let normalizer = MinMaxNormalizer(rows: candidates, keyword: bm25, cosine: buffers.cosine, floorRows: floorRows)
        var first = RowTopK(k: count)
        for row in candidates {
            let fused = normalizer.linear(alpha: alpha, keyword: bm25[Int(row)], cosine: buffers.cosine[Int(row)])
            first.insert(score: fused, row: row, precedes: order.precedes)
        }
        return first
    }
}
