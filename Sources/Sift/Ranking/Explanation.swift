import Foundation

/// Every term of a result's score, for `--explain`.
public struct Explanation: Sendable, Equatable {
    /// Per query term: idf, raw frequency and weighted part per field, BM25F score.
    package var keywordTerms: [KeywordIndex.TermExplanation] = []
    public var keywordScore: Float = 0
    /// The part of ``keywordScore`` that keyword feedback terms added (hybrid mode).
    public var keywordFeedbackScore: Float = 0
    public var cosine: Float?
    /// The fusion inputs, each in 0…1.
    public var normalizedKeyword: Float = 0
    public var normalizedSemantic: Float = 0
    public var fusion: String = ""
    public var relevance: Float = 0
    /// Decayed donation count and the factor it gave (1 = none).
    public var donationScore: Float = 0
    public var donationFactor: Float = 1
    public var rankingHintFactor: Float = 1
    public var domainBoostFactor: Float = 1
    /// > 1 when the title begins with the query's words.
    public var titlePrefixFactor: Float = 1
    public var finalScore: Float = 0
    /// What calibrated relevance read, and its estimate (``SearchResult/relevance``).
    package var relevanceEvidence: RelevanceModel.Evidence?
    public var calibratedRelevance: Float = 0
}
