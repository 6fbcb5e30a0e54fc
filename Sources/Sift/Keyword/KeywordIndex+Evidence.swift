import Foundation

/// What calibrated relevance (``RelevanceModel``) reads of a query's keyword half.
extension KeywordIndex {
    /// Per query term, its index term ids and its weight (its idf, times its query-frequency
    /// weight when the query says it more than once); and what the whole query weighs.
    package struct QueryEvidence: Sendable {
        /// Per query term: the ids of its index terms (a prefix: every expansion), ascending,
        /// and its weight (its idf).
        var terms: [(ids: [Int32], weight: Float)] = []
        /// The most BM25F the query can give a document: every term saturated,
        /// Σ weight · (k1 + 1).
        package var attainable: Float = 0
        /// Σ weight: the weight of a document holding every term.
        package var totalWeight: Float = 0
    }

    /// The evidence of `query`, with today's document frequencies. A prefix weighs as its most
    /// frequent expansion (the smallest idf: the typed prefix says no more than that) and can
    /// give as much as its rarest. A word no item holds weighs 0 — a typo the corrector could not
    /// fix says nothing about any item, and counting it would lower every result of a typo'd
    /// query alike — unless `countsAbsent` says it is a real word (the model knows it): then the
    /// index holds nothing about it, and it weighs the largest idf, in the query's weight and in
    /// what it could attain, held by no result.
    package func evidence(_ query: [QueryTerm], countsAbsent: (QueryTerm) -> Bool = { _ in false }) -> QueryEvidence {
        let k1 = parameters.k1
        var evidence = QueryEvidence()
        for term in query {
            let ids = term.terms.compactMap { termIDs[$0] }.filter { postings.count(of: Int($0)) > 0 }
            let idfs =
                ids.isEmpty && countsAbsent(term)
                ? [term.weight * idf(documentFrequency: 0)]
                : ids.map { term.weight * idf(documentFrequency: postings.count(of: Int($0))) }
            let weight = idfs.min() ?? 0
            evidence.attainable += (idfs.max() ?? 0) * (k1 + 1)
            evidence.totalWeight += weight
            evidence.terms.append((ids.sorted(), weight))
        }
        return evidence
    }

    /// The weight and number of the query's terms `row` holds.
    /// - Complexity: O(Σ expansions · log |row's terms|).
    package func matched(_ evidence: QueryEvidence, row: Int32) -> (weight: Float, terms: Int) {
        rowTerms.withList(Int(row)) { held in
            guard let held else { return (0, 0) }
            var weight: Float = 0
            var count = 0
            for term in evidence.terms where term.ids.contains(where: { Self.sortedContains(held, $0) }) {
                weight += term.weight
                count += 1
            }
            return (weight, count)
        }
    }

    /// Whether the ascending `list` holds `id`, by binary search.
    static func sortedContains(_ list: UnsafeBufferPointer<Int32>, _ id: Int32) -> Bool {
        var lo = 0
        var hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < list.count && list[lo] == id
    }
}
