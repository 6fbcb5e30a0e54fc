import Foundation

/// Which halves of the index rank a query.
public enum SearchMode: String, Sendable, CaseIterable {
    /// BM25F alone.
    case keyword
    /// Cosine similarity of embeddings alone.
    case semantic
    /// Both, fused (the default).
    case hybrid
}

/// A search request.
public struct SearchQuery: Sendable {
    public var text: String
    /// Number of results wanted (1…1000).
    public var limit: Int
    public var mode: SearchMode
    /// Only items of these domains (empty: all).
    public var domains: [String]
    /// Only items dated on or after this instant.
    public var since: Date?
    /// Only items dated before this instant.
    public var until: Date?
    /// The present, for expiry and relative date phrases (default: the index's clock).
    public var now: Date?
    /// Parse date phrases and domain words out of the text ("last week's expenses").
    public var understandsPhrases: Bool
    /// Treat the last word as a prefix (as-you-type), unless the text ends in a separator.
    public var prefixLastTerm: Bool
    /// Attach an ``Explanation`` to every result.
    public var explain: Bool
    /// Correct words that neither the index nor the model knows to the nearest index word one
    /// edit away (`SpellingCorrector`); the report lists each correction.
    public var correctsSpelling: Bool
    /// Attach a ``Snippet`` to every result: built after ranking, for the returned results
    /// only, so it changes no score. Off by default: a snippet costs a pass over each returned
    /// result's text (about 0.05–0.15 ms a query of ten results), which a caller that shows
    /// only titles, or ranks for its own use, need not pay. `sift search` turns it on.
    public var snippets: Bool
    /// Tests only: score every candidate instead of skipping those whose score bound cannot
    /// reach the top k — the reference the pruned ranking must equal.
    var scoresEveryCandidate = false

    public init(
        _ text: String, limit: Int = 10, mode: SearchMode = .hybrid, domains: [String] = [],
        since: Date? = nil, until: Date? = nil, now: Date? = nil, understandsPhrases: Bool = true,
        prefixLastTerm: Bool = true, explain: Bool = false, correctsSpelling: Bool = true,
        snippets: Bool = false
    ) {
        self.snippets = snippets
        self.correctsSpelling = correctsSpelling
        self.text = text
        self.limit = limit
        self.mode = mode
        self.domains = domains
        self.since = since
        self.until = until
        self.now = now
        self.understandsPhrases = understandsPhrases
        self.prefixLastTerm = prefixLastTerm
        self.explain = explain
    }
}

/// One ranked item. An immutable value: safe to hand to any thread.
public struct SearchResult: Sendable, Equatable {
    public var id: ItemID
    public var domain: String
    public var title: String
    public var score: Float
    public var url: String?
    public var date: Date?
    public var displayName: String?
    public var explanation: Explanation?
    /// The passage that shows why it matched (when ``SearchQuery/snippets`` is on).
    public var snippet: Snippet? = nil
}

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
}

/// What a search understood and excluded, for `--explain`.
public struct QueryReport: Sendable, Equatable {
    public var searchedText: String = ""
    public var understood: [String] = []
    public var filters: [String] = []
    /// Lines like "domain filter excluded 3 matching items".
    public var exclusions: [String] = []
    public var mode: SearchMode = .hybrid
    public var candidates: Int = 0
    /// The terms keyword feedback added to the query (hybrid mode), with their shares.
    package var feedbackTerms: [KeywordIndex.FeedbackTerm] = []
}
