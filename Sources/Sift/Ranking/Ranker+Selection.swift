import Foundation

/// Steps 5 and 6 of ``Ranker``: selection of the top k, and the explanation of each result.
extension Ranker {
    /// Offers every candidate to a top-k heap, skipping one whose relevance times the bound of
    /// its factors is below the k-th best score so far: its score could not enter the top k
    /// (ties included, which go to the smaller id only at equal scores), so the results are
    /// those of scoring every candidate.
    func select() -> RowTopK { select(candidates, k: request.limit) }

    /// ``select()`` among `rows` (candidates), keeping `k`.
    func select(_ rows: [Int32], k: Int) -> RowTopK {
        var top = RowTopK(k: k)
        var threshold = top.threshold
        let largestBound = priors.bounds.map { max($0.plain, $0.titled) }
        // In keyword mode without cosines a row's relevance is its BM25F (after keyword
        // feedback): read straight from the scores, not through ``relevance(_:)``, which also
        // normalises both halves.
        let keywordOnly = request.mode == .keyword && !semantic.hasCosine
        bm25.withUnsafeBufferPointer { scores in
            for row in rows {
                let r =
                    keywordOnly
                    ? Relevance(
                        keyword: scores[Int(row)], cosine: nil, normalizedKeyword: 0, normalizedSemantic: 0,
                        value: scores[Int(row)])
                    : relevance(row)
                // Below the threshold even at the larger bound: out without reading whether its
                // title may begin with the query (the same test: r ≥ 0 keeps the products in order).
                if let bounds = priors.bounds, r.value >= 0,
                    r.value * largestBound! < threshold
                        || r.value * (mayBeginTitle(row) ? bounds.titled : bounds.plain) < threshold
                {
                    continue
                }
                let s = factors(of: row, relevance: r.value, keywordScore: r.keyword, cosine: r.cosine).final
                top.insert(score: s, row: row, precedes: order.precedes)
                threshold = top.threshold
            }
        }
        return top
    }

    /// The selected rows as results, best first, each with its calibrated relevance and, when
    /// asked for, its explanation; those below ``Request/minimumRelevance`` are left out and
    /// counted in the report.
    mutating func results(_ top: RowTopK) -> [SearchResult] {
        // In hybrid mode a query word that no item holds counts against every result when the
        // model knows it as a word (not a typo): the index holds nothing about it.
        let vocabulary = request.mode == .hybrid ? embedder as? any WordVocabulary : nil
        let query = state.keyword.evidence(request.terms, countsAbsent: { vocabulary?.recognizes(word: $0.word) ?? false })
        var kept: [SearchResult] = []
        var keptRows: [Int32] = []
        var best: Float = 0
        for entry in top.sorted(precedes: order.precedes) {
            let found = evidence(entry.row, query)
            let relevance = relevanceModel.relevance(found, mode: request.mode)
            guard relevance >= request.minimumRelevance else {
                report.belowMinimumRelevance += 1
                continue
            }
            keptRows.append(entry.row)
            best = max(best, relevance)
            var explanation: Explanation?
            if request.explain {
                var e = explain(entry.row)
                if request.mode != .semantic { e.keywordTerms = state.keyword.explain(request.terms, row: entry.row) }
                e.relevanceEvidence = found
                e.calibratedRelevance = relevance
                explanation = e
            }
            var result = SearchResult(state.items[Int(entry.row)]!, score: entry.score, explanation: explanation)
            result.relevance = relevance
            result.evidence = found
            kept.append(result)
        }
        if isUnanswered(keptRows, best: best) {
            report.belowMinimumRelevance += kept.count
            report.unanswered = true
            return []
        }
        return kept
    }

    /// What calibrated relevance reads of `row`: its BM25F before keyword feedback, the query's
    /// terms it holds, and its cosine with the query vector before vector feedback (one dot
    /// product: the candidates' cosines may be the feedback query's by now).
    func evidence(_ row: Int32, _ query: KeywordIndex.QueryEvidence) -> RelevanceModel.Evidence {
        var e = RelevanceModel.Evidence()
        e.keywordScore = keywordScoreBeforeFeedback(row)
        e.attainable = query.attainable
        e.queryWeight = query.totalWeight
        e.queryTerms = query.terms.count
        (e.matchedWeight, e.matchedTerms) = state.keyword.matched(query, row: row)
        if let exact = semantic.exactCosines[row] {
            e.cosine = exact
        } else if semantic.hasCosine, let vectors = state.vectors {
            e.cosine = vectors.exactScore(for: semantic.queryVector, row: row)
        }
        return e
    }

    /// Every part of a candidate's score.
    func explain(_ row: Int32) -> Explanation {
        let r = relevance(row)
        var e = Explanation()
        e.keywordScore = r.keyword
        e.keywordFeedbackScore = keywordFeedback.rows.firstIndex(of: row).map { keywordFeedback.added[$0] } ?? 0
        e.cosine = r.cosine
        e.normalizedKeyword = r.normalizedKeyword
        e.normalizedSemantic = r.normalizedSemantic
        e.relevance = r.value
        e.fusion = fusionLabel
        let f = factors(of: row, relevance: r.value, keywordScore: r.keyword, cosine: r.cosine)
        e.donationScore = f.donationScore
        e.donationFactor = f.donation
        e.rankingHintFactor = f.hint
        e.domainBoostFactor = f.domain
        e.titlePrefixFactor = f.title
        e.finalScore = f.final
        return e
    }
}
