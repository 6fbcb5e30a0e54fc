import Foundation

/// The per-row buffers one query ranks with: the keyword accumulator, the cosine of every row,
/// the candidate marks and keyword feedback's sums. Kept between queries so that a query costs
/// its matches, not an allocation and a zeroing per row; each is handed back clean (zeros,
/// no marks) by ``Ranker/finish()``.
struct RankingBuffers {
    var accumulator = KeywordAccumulator()
    var cosine: [Float] = []
    var isCandidate: [Bool] = []
    /// Keyword feedback's per-row sums: zeros between queries.
    var feedbackSums: [Float] = []

    /// Makes room for `capacity` rows.
    mutating func reserve(rows capacity: Int) {
        accumulator.reserve(rows: capacity)
        if isCandidate.count < capacity { isCandidate += repeatElement(false, count: capacity - isCandidate.count) }
    }
}

/// What one index's searches reuse from one query to the next (the actor runs one search at a
/// time): the ranking buffers and the query parser for the current set of domains.
final class SearchScratch {
    var buffers = RankingBuffers()
    var parser: (domains: [String: String?], parser: QueryParser)?
}
