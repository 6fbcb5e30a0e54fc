import Foundation

/// What a search understood and excluded, for `--explain`.
public struct QueryReport: Sendable, Equatable {
    public var searchedText: String = ""
    public var understood: [String] = []
    public var filters: [String] = []
    /// Lines like "domain filter excluded 3 matching items".
    public var exclusions: [String] = []
    public var mode: SearchMode = .hybrid
    public var candidates: Int = 0
    /// How many of the best `limit` results were not returned, their calibrated relevance below
    /// ``SearchQuery/minimumRelevance``.
    public var belowMinimumRelevance: Int = 0
    /// The query had no answer here: two or more words, its best result weak (calibrated
    /// relevance below the mode's answer floor) and none of its results holding two of its words
    /// side by side, so every result was left out (and counted in ``belowMinimumRelevance``).
    /// Only with a ``SearchQuery/minimumRelevance`` above 0.
    public var unanswered: Bool = false
    /// The terms keyword feedback added to the query (hybrid mode), with their shares.
    package var feedbackTerms: [KeywordIndex.FeedbackTerm] = []
}
