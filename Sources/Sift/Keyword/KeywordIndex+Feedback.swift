import Foundation

/// Keyword-side pseudo-relevance feedback (RM3-like; Lavrenko & Croft 2001, Abdul-Jaleel et
/// al. 2004): the best first-pass result lends its most telling terms to the query, which then
/// re-scores the candidates it already has. It never adds a candidate.
extension KeywordIndex {
    /// One feedback term and its share of the feedback weight (the shares sum to 1).
    package struct FeedbackTerm: Sendable, Equatable {
        package var term: String
        package var weight: Float
    }

    /// The `count` index terms of `items` with the highest `Σ_d tf(t, d) / |d| · idf(t)`,
    /// leaving out `exclude` and terms held by one document only; ties broken by the term.
    /// - Complexity: O(length of the items' text + t log t) for t distinct terms.
    package func feedbackTerms(of items: [SearchableItem], exclude: Set<String>, count: Int) -> [FeedbackTerm] {
        guard count > 0 else { return [] }
        var weight: [String: Float] = [:]
        for item in items {
            var tf: [String: Int] = [:]
            var length = 0
            for text in [item.title, item.keywords.joined(separator: " "), item.content] {
                for term in indexTerms(text) {
                    tf[term, default: 0] += 1
                    length += 1
                }
            }
            guard length > 0 else { continue }
            for (term, n) in tf where !exclude.contains(term) {
                let df = documentFrequency(term)
                guard df > 1 else { continue }
                weight[term, default: 0] += Float(n) / Float(length) * idf(documentFrequency: df)
            }
        }
        let ranked = weight.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            .prefix(count)
        let sum = ranked.reduce(Float(0)) { $0 + $1.value }
        guard sum > 0 else { return [] }
        return ranked.map { FeedbackTerm(term: $0.key, weight: $0.value / sum) }
    }

    /// `Σ_t weight(t) · BM25F(t, row)` over `terms` for each row that `admits` and that holds
    /// at least one of them.
    /// - Complexity: O(Σ p) over the postings of the feedback terms.
    package func feedbackScores(_ terms: [FeedbackTerm], admits: (Int32) -> Bool) -> [Int32: Float] {
        var sums = [Float](repeating: 0, count: fieldLengths.count)
        var touched: [Int32] = []
        addFeedbackScores(terms, admits: admits, into: &sums, touched: &touched)
        return Dictionary(uniqueKeysWithValues: touched.map { ($0, sums[Int($0)]) })
    }

    /// ``feedbackScores(_:admits:)`` into a dense buffer: adds each admitted row's
    /// `Σ_t weight(t) · BM25F(t, row)` to `sums[row]` (zeros, at least a slot per row), in the
    /// same order and so to the same bits, and appends each row it reaches to `touched` once.
    /// - Complexity: O(Σ p) over the postings of the feedback terms; no hashing.
    func addFeedbackScores(
        _ terms: [FeedbackTerm], admits: (Int32) -> Bool, into sums: inout [Float], touched: inout [Int32]
    ) {
        precondition(sums.count >= fieldLengths.count)
        sums.withUnsafeMutableBufferPointer { sums in
            let sumsTable = (UnsafeRawPointer(sums.baseAddress), MemoryLayout<Float>.stride)
            for t in terms {
                forEachScore(ofTerm: t.term, admits: admits, bodyTable: sumsTable) { row, s in
                    let r = Int(row)
                    // BM25F is positive (idf > 0, a posting's frequency ≥ 1), so a row's first
                    // addition is the one that finds 0 there.
                    if sums[r] == 0 { touched.append(row) }
                    sums[r] += t.weight * s
                }
            }
        }
    }
}
